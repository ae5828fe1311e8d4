import { describe, expect, it } from 'vitest';
import { EVACUATION_MESSAGES } from '../../src/domain/evacuation';
import { evacuationScopeProblem } from '../../src/domain/evacuationRules';

const valid = { floorIds: [1], zoneIds: [], assemblyZoneIds: [9], safeZone: null };

describe('evacuationScopeProblem', () => {
  it('accepts a floor or a zone to evacuate with an assembly zone or a safe zone', () => {
    expect(evacuationScopeProblem(valid)).toBeNull();
    expect(evacuationScopeProblem({ ...valid, floorIds: [], zoneIds: [4] })).toBeNull();
    expect(evacuationScopeProblem({ ...valid, assemblyZoneIds: [], safeZone: 12 })).toBeNull();
  });

  it('refuses a scope with nothing to evacuate', () => {
    expect(evacuationScopeProblem({ ...valid, floorIds: [], zoneIds: [] })).toBe(
      EVACUATION_MESSAGES.emptyScope,
    );
  });

  it('refuses a scope with nowhere safe to go', () => {
    expect(evacuationScopeProblem({ ...valid, assemblyZoneIds: [], safeZone: null })).toBe(
      EVACUATION_MESSAGES.noAssembly,
    );
  });

  it('names the missing area first when both are missing', () => {
    expect(evacuationScopeProblem({ floorIds: [], zoneIds: [], assemblyZoneIds: [], safeZone: null })).toBe(
      EVACUATION_MESSAGES.emptyScope,
    );
  });
});
