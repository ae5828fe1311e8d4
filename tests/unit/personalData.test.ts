import { BehaviorSubject, firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { EvacuationWorker } from '../../src/domain/evacuation';
import type { WorkerOnMap } from '../../src/domain/inventory';
import {
  anonymousMarker,
  helmetState,
  markerLabel,
  markersFor,
  PERSONAL_FIELDS,
  type PersonalDataContext,
  personalDataReach,
} from '../../src/domain/personalData';
import { ROLES, type Role } from '../../src/domain/roles';
import { evacuationMarkers$ } from '../../src/streams/evacuation.stream';
import type { WorkerMap } from '../../src/streams/workerMapState';

const FLOOR = 3;

function marker(inventoryId: number, overrides: Partial<WorkerOnMap> = {}): WorkerOnMap {
  return {
    id: inventoryId + 100,
    inventory_id: inventoryId,
    wnt_inventory_id: `HLM-${inventoryId}`,
    coordinates: { lat: 25.2, long: 55.27 },
    name: `Worker ${inventoryId}`,
    worker_tag_id: `BADGE-${inventoryId}`,
    contact_number: '+971500000000',
    role_name: 'Rigger',
    subcontractor_name: 'Steel Co',
    last_seen: '2026-05-01T10:00:00.000Z',
    is_online: true,
    is_active: true,
    profile_picture_path: `/api/sites/1/workers/${inventoryId + 100}/picture`,
    helmet_color: '#ffcc00',
    zone_id: 9,
    zone_name: 'Fit-out area',
    blueprint_id: FLOOR,
    blueprint_name: 'Level 1',
    ...overrides,
  };
}

/** The table of the decision (docs/decisions.md): role × context. */
const EXPECTED: Record<Role, Record<PersonalDataContext, string>> = {
  'super-admin': { map: 'all', evacuationWall: 'all', workerRecords: 'all', picture: 'all' },
  'client-admin': { map: 'all', evacuationWall: 'all', workerRecords: 'all', picture: 'all' },
  'group-of-sites-admin': { map: 'all', evacuationWall: 'all', workerRecords: 'all', picture: 'all' },
  'group-of-sites-viewer': { map: 'all', evacuationWall: 'all', workerRecords: 'all', picture: 'all' },
  'crew-manager': {
    map: 'currentCrews',
    evacuationWall: 'none',
    workerRecords: 'currentCrews',
    picture: 'currentCrews',
  },
  'site-engineer': { map: 'none', evacuationWall: 'none', workerRecords: 'none', picture: 'none' },
  'safety-demo': { map: 'none', evacuationWall: 'all', workerRecords: 'none', picture: 'all' },
};

describe('personal data rule', () => {
  it('gives each role its reach in each context, as the decision table says', () => {
    for (const role of ROLES)
      for (const context of ['map', 'evacuationWall', 'workerRecords', 'picture'] as const)
        expect(personalDataReach(role, context), `${role} ${context}`).toBe(EXPECTED[role][context]);
  });

  it('keeps where and how a helmet is, and nothing of who wears it', () => {
    const anonymous = anonymousMarker(marker(1));
    for (const field of PERSONAL_FIELDS) expect(anonymous[field], field).toBeNull();
    expect(anonymous).toMatchObject({
      inventory_id: 1,
      wnt_inventory_id: 'HLM-1',
      helmet_color: '#ffcc00',
      coordinates: { lat: 25.2, long: 55.27 },
      zone_name: 'Fit-out area',
      blueprint_id: FLOOR,
      is_online: true,
      last_seen: '2026-05-01T10:00:00.000Z',
    });
    expect(markerLabel(anonymous)).toBe('HLM-1');
    expect(markerLabel(marker(1))).toBe('Worker 1');
  });

  it("names a crew manager's current crew members only", () => {
    const [own, other] = markersFor('currentCrews', [marker(1), marker(2)], new Set([101]));
    expect(own.name).toBe('Worker 1');
    expect(other.name).toBeNull();
    expect(markersFor('none', [marker(1)])[0].contact_number).toBeNull();
    expect(markersFor('all', [marker(1)])[0].contact_number).toBe('+971500000000');
  });

  it('lays an anonymous live helmet over an evacuated worker without wiping its name', async () => {
    const included: EvacuationWorker = {
      ...marker(1, { last_seen: '2026-05-01T10:00:00.000Z' }),
      id: 101,
      isSafe: false,
      isWorkerAcknowledged: false,
      isIncludedEvacuation: true,
      status: 'autoAcknowledge',
      includedAt: '2026-05-01T10:00:00.000Z',
      statusChangedAt: '2026-05-01T10:00:00.000Z',
      safeAt: null,
      acknowledgedAt: null,
      mark: null,
      alarmSentAt: null,
      alarmDeliveredAt: null,
      originFloorId: null,
      redirectZoneId: null,
      redirectedAt: null,
    };
    const fresher = anonymousMarker(marker(1, { last_seen: '2026-05-01T10:00:05.000Z', zone_name: 'Yard' }));
    const live = new BehaviorSubject<WorkerMap>(new Map([[1, fresher]]));
    const markers = await firstValueFrom(
      evacuationMarkers$(FLOOR, live, new BehaviorSubject(new Map([[101, included]]))),
    );
    expect(markers.get(1)).toMatchObject({
      name: 'Worker 1',
      contact_number: '+971500000000',
      id: 101,
      zone_name: 'Yard',
      last_seen: '2026-05-01T10:00:05.000Z',
    });
    expect(helmetState(fresher)).not.toHaveProperty('name');
  });
});
