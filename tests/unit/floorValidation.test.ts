import { describe, expect, it } from 'vitest';
import { greatCircleDistance } from '../../src/domain/distance';
import { parseDecimal, validateCorners, validateFloorForm } from '../../src/domain/floorValidation';

const corners = {
  a: { lat: '25.21', long: '55.31' },
  b: { lat: '25.21', long: '55.3108' },
  c: { lat: '25.2095', long: '55.3108' },
  d: { lat: '25.2095', long: '55.31' },
};

describe('parseDecimal', () => {
  it('trims and reads decimals, blank as missing, anything else as NaN', () => {
    expect(parseDecimal(' 25.5 ')).toBe(25.5);
    expect(parseDecimal('-.5')).toBe(-0.5);
    expect(parseDecimal('1e2')).toBe(100);
    expect(parseDecimal(7)).toBe(7);
    expect(parseDecimal('  ')).toBeUndefined();
    expect(parseDecimal(undefined)).toBeUndefined();
    for (const bad of ['0x10', '1,5', 'abc', '12abc', 'Infinity']) expect(parseDecimal(bad)).toBeNaN();
  });
});

describe('validateCorners', () => {
  it('answers the corners as numbers', () => {
    const { corners: value, errors } = validateCorners({ ...corners, a: { lat: ' 25.21 ', long: '55.31 ' } });
    expect(errors).toEqual({});
    expect(value?.a).toEqual({ lat: 25.21, long: 55.31 });
  });

  it('words range and required errors as the spec does, keyed by corner', () => {
    const { corners: value, errors } = validateCorners({
      a: { lat: '91', long: '55' },
      b: { lat: '-90', long: '180.0001' },
      c: { lat: '', long: '55' },
      d: { lat: '25' },
    });
    expect(value).toBeNull();
    expect(errors).toEqual({
      'coordinates.a.lat': 'Latitude should be number between -90 and 90',
      'coordinates.b.long': 'Longitude should be number between -180 and 180',
      'coordinates.c.lat': 'Latitude is required',
      'coordinates.d.long': 'Longitude is required',
    });
  });

  it('accepts the range limits and refuses crossed corners', () => {
    expect(validateCorners(undefined).errors['coordinates.a.lat']).toBe('Latitude is required');
    const crossed = validateCorners({ ...corners, b: corners.c, c: corners.b });
    expect(crossed.errors).toEqual({ coordinates: 'Corners a, b, c and d must form a quadrilateral' });
  });
});

describe('validateFloorForm', () => {
  it('answers trimmed values', () => {
    const { value, errors } = validateFloorForm({
      name: ' Level 3 ',
      altitude: ' 12 ',
      category: ' Floor ',
      coordinates: corners,
    });
    expect(errors).toEqual({});
    expect(value).toMatchObject({ name: 'Level 3', altitude: 12, category: 'Floor' });
  });

  it('requires a name and a numeric altitude; category is optional', () => {
    expect(validateFloorForm({ name: '', altitude: '', coordinates: corners }).errors).toEqual({
      name: 'Name is required',
      altitude: 'Altitude is required',
    });
    expect(validateFloorForm({ name: 'A', altitude: 'x', coordinates: corners }).errors).toEqual({
      altitude: 'Altitude should be a number',
    });
    expect(validateFloorForm({ name: 'A', altitude: '0', coordinates: corners }).value?.category).toBe('');
  });

  it('checks a given a–b distance to two decimals', () => {
    const metres = greatCircleDistance({ lat: 25.21, long: 55.31 }, { lat: 25.21, long: 55.3108 });
    const base = { name: 'A', altitude: '0', coordinates: corners };
    expect(validateFloorForm({ ...base, distance: metres.toFixed(2) }).errors).toEqual({});
    expect(validateFloorForm({ ...base, distance: '1' }).errors).toEqual({
      distance: "Distance doesn't match the distance between corners a and b",
    });
  });
});
