import { describe, expect, it } from 'vitest';
import { sitePlaceName, zonePlaceName } from '../../src/domain/placeNames';

describe('places named with their building', () => {
  it('names a zone with its floor and building, as the start dialog lists zones', () => {
    expect(sitePlaceName({ building: 'North Block', floor: 'Level 2', zone: 'East wing' })).toBe(
      'East wing (Level 2 · North Block)',
    );
    expect(sitePlaceName({ building: 'South Block', floor: 'Level 2', zone: 'East wing' })).toBe(
      'East wing (Level 2 · South Block)',
    );
    expect(zonePlaceName('East wing', 'Level 2 · North Block')).toBe('East wing (Level 2 · North Block)');
  });

  it('names a floor with its building, and leaves out what is not known', () => {
    expect(sitePlaceName({ building: 'North Block', floor: 'Level 2', zone: null })).toBe(
      'Level 2 · North Block',
    );
    expect(sitePlaceName({ building: null, floor: 'Level 2', zone: 'East wing' })).toBe(
      'East wing (Level 2)',
    );
    expect(sitePlaceName({ building: null, floor: null, zone: null })).toBeNull();
    expect(zonePlaceName('East wing', null)).toBe('East wing');
  });
});
