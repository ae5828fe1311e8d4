import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../src/domain/roles';
import { isMenuGroup, MENU, type MenuEntry, menuFor } from '../../src/domain/routes';

/** A menu as label keys: a link is its key, a group is `[groupKey, [childKeys]]`. */
type Shape = (string | [string, string[]])[];

function shapeOf(entries: readonly MenuEntry[]): Shape {
  return entries.map((entry) =>
    isMenuGroup(entry) ? [entry.labelKey, entry.children.map((child) => child.labelKey)] : entry.labelKey,
  );
}

const EVERYTHING: Shape = [
  'menu.analytics',
  'menu.workers',
  'menu.workerRoles',
  'menu.subcontractors',
  'menu.maps',
  'menu.etqr',
  ['menu.crewsAndWorkshifts', ['menu.crews', 'menu.workshifts']],
  'menu.nodes',
  'menu.installation',
  ['menu.maintenanceKit', ['menu.mapView', 'menu.maintenanceToolkit']],
  'menu.users',
  ['menu.configurations', ['menu.bulkUploads']],
  'menu.safetyDemo',
  'menu.electricalRm',
  'menu.safety',
  'menu.evacuation',
  'menu.attendance',
];

/** DESIGN.md §4, row by row, in the side menu's order of spec §2. */
const EXPECTED: Record<Role, Shape> = {
  'super-admin': EVERYTHING,
  'client-admin': EVERYTHING.filter((entry) => entry !== 'menu.safetyDemo'),
  'group-of-sites-admin': EVERYTHING.filter((entry) => entry !== 'menu.safetyDemo'),
  'group-of-sites-viewer': [
    'menu.analytics',
    'menu.workers',
    'menu.maps',
    'menu.etqr',
    ['menu.crewsAndWorkshifts', ['menu.crews', 'menu.workshifts']],
    'menu.safety',
    'menu.evacuation',
    'menu.attendance',
  ],
  'crew-manager': [
    'menu.workers',
    'menu.etqr',
    ['menu.crewsAndWorkshifts', ['menu.crews', 'menu.workshifts']],
    'menu.attendance',
  ],
  'site-engineer': [
    'menu.etqr',
    'menu.nodes',
    'menu.installation',
    ['menu.maintenanceKit', ['menu.mapView', 'menu.maintenanceToolkit']],
    'menu.electricalRm',
  ],
  'safety-demo': ['menu.safetyDemo', 'menu.safety', 'menu.evacuation'],
};

describe('menuFor', () => {
  it('has an expectation for each of the 7 roles', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...ROLES].sort());
  });

  it('the full menu is the spec side menu, in order', () => {
    expect(shapeOf(MENU)).toEqual(EVERYTHING);
  });

  for (const role of ROLES) {
    it(`shows ${role} exactly its entries`, () => {
      expect(shapeOf(menuFor(role))).toEqual(EXPECTED[role]);
    });
  }

  it('never keeps an emptied group', () => {
    for (const role of ROLES) {
      for (const entry of menuFor(role)) {
        if (isMenuGroup(entry)) expect(entry.children.length).toBeGreaterThan(0);
      }
    }
  });
});
