import { describe, expect, it } from 'vitest';
import { floorPlaceName, floorPlaceNames } from '../../src/domain/placeNames';

describe('floors named with their building', () => {
  const buildings = [
    { id: 1, name: 'North Block' },
    { id: 2, name: 'South Block' },
  ];
  const floors = [
    { id: 10, name: 'Level 2', building_id: 1 },
    { id: 20, name: 'Level 2', building_id: 2 },
    { id: 30, name: 'Roof', building_id: 9 },
  ];

  it('tells two blocks’ floors of the same name apart', () => {
    const placeOf = floorPlaceNames(floors, buildings);
    expect(placeOf(10)).toBe('Level 2 · North Block');
    expect(placeOf(20)).toBe('Level 2 · South Block');
    expect(placeOf(10)).not.toBe(placeOf(20));
  });

  it('keeps the floor’s own name when the building is unknown, and nothing for no floor', () => {
    const placeOf = floorPlaceNames(floors, buildings);
    expect(placeOf(30)).toBe('Roof');
    expect(placeOf(null)).toBeNull();
    expect(placeOf(99)).toBeNull();
    expect(floorPlaceName('Level 1', undefined)).toBe('Level 1');
  });
});
