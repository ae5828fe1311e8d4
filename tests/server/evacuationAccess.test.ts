import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zones } from '../../server/db/schema';
import { EVACUATION_MESSAGES, SAFETY_EVENTS, type StartEvacuationRequest } from '../../src/domain/evacuation';
import type { Role } from '../../src/domain/roles';
import { type DemoFloorFixture, demoFloor } from './helpers/ingestFixture';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import {
  evacuationOf,
  groundFloorAssembly,
  type SafetyServer,
  startSafetyServer,
} from './helpers/safetyServer';
import { startTestApp, type TestApp } from './helpers/testApp';

/** Long enough for a stray broadcast to have arrived had it been sent. */
const QUIET_MS = 300;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('who may start, end and watch an evacuation', () => {
  let t: TestApp;
  let safety: SafetyServer;
  let fixture: DemoFloorFixture;
  let other: OtherTenant;
  let otherZoneId: number;
  let request: StartEvacuationRequest;

  const connect = async (role: Role, siteId = fixture.siteId) => {
    const client = safety.connect({ token: await t.loginAs(role), siteId });
    await client.firstSnapshot();
    return client;
  };

  beforeAll(async () => {
    t = await startTestApp();
    fixture = await demoFloor(t.db);
    other = await seedOtherTenant(t.db);
    [{ id: otherZoneId }] = await t.db
      .insert(zones)
      .values({ floorId: other.floorId, name: 'Yard', kind: 'assembly', coordinates: [[-0.1, 51.5]] })
      .returning();
    const { assemblyZoneId } = await groundFloorAssembly(t.db, fixture);
    request = evacuationOf(fixture.siteId, [fixture.floor.id], [assemblyZoneId]);
    safety = await startSafetyServer(t);
  });

  afterAll(async () => {
    await safety?.close();
    await t?.close();
  });

  it('answers malformed requests with an error envelope and keeps the socket', async () => {
    const admin = await connect('group-of-sites-admin');
    const bad: unknown[] = [
      null,
      'start',
      [],
      { ...request, siteId: String(fixture.siteId) },
      { ...request, siteId: undefined },
      { ...request, floorIds: 'all' },
      { ...request, zoneIds: [1.5] },
      { ...request, assemblyZoneIds: [-3] },
      { ...request, safeZone: 'yard' },
    ];
    for (const payload of bad) {
      const reply = await admin.start(payload);
      expect(reply.status, JSON.stringify(payload)).toBe('error');
      expect(reply.message).toEqual(expect.any(String));
    }
    expect(await admin.end({ siteId: fixture.siteId, evacuationSessionId: 42 })).toMatchObject({
      status: 'error',
      message: 'evacuationSessionId must be a session id',
    });
    expect(await admin.start({ ...request, floorIds: [], zoneIds: [] })).toEqual({
      status: 'error',
      message: EVACUATION_MESSAGES.emptyScope,
    });
    expect(await admin.start({ ...request, assemblyZoneIds: [] })).toEqual({
      status: 'error',
      message: EVACUATION_MESSAGES.noAssembly,
    });
    // Without an acknowledgement callback nothing is answered, and nothing breaks.
    admin.socket.emit(SAFETY_EVENTS.startEvacuation, { nonsense: true });
    expect(await admin.end({ siteId: fixture.siteId, evacuationSessionId: 'none' })).toEqual({
      status: 'error',
      message: EVACUATION_MESSAGES.notRunning,
    });
    expect(admin.socket.connected).toBe(true);
  });

  it("refuses another client's site, floor, zone or network as not found", async () => {
    const admin = await connect('client-admin');
    expect(await admin.start({ ...request, siteId: other.siteId })).toEqual({
      status: 'error',
      message: 'Site not found',
    });
    expect(await admin.start({ ...request, floorIds: [other.floorId] })).toEqual({
      status: 'error',
      message: 'Floor not found',
    });
    expect(await admin.start({ ...request, assemblyZoneIds: [otherZoneId] })).toEqual({
      status: 'error',
      message: 'Zone not found',
    });
    expect(await admin.start({ ...request, gateWayId: other.networkId })).toEqual({
      status: 'error',
      message: 'Network not found',
    });
    expect((await admin.requestEvacuation()).data).toBeNull();
  });

  it('lets a Site Viewer watch but not start or end; other clients and roles without safety hear nothing', async () => {
    const viewer = await connect('group-of-sites-viewer');
    const crewManager = await connect('crew-manager');
    const otherClient = safety.connect({
      token: await t.login(other.email('client-admin')),
      siteId: other.siteId,
    });
    await otherClient.firstSnapshot();

    expect(await viewer.start(request)).toEqual({ status: 'error', message: EVACUATION_MESSAGES.forbidden });
    const admin = await connect('group-of-sites-admin');
    const started = await admin.start(request);
    expect(started.status).toBe('success');
    const sessionId = started.data!.evacuationSessionId;

    const seen = await viewer.until('evacuationInProgress', () => viewer.inProgress[0]);
    expect(seen.evacuation.evacuationSessionId).toBe(sessionId);
    expect((await viewer.requestEvacuation()).data?.evacuation.evacuationSessionId).toBe(sessionId);
    expect(await viewer.end({ siteId: fixture.siteId, evacuationSessionId: sessionId })).toEqual({
      status: 'error',
      message: EVACUATION_MESSAGES.forbidden,
    });
    // A viewer joining while it runs gets it on connect.
    const lateViewer = await connect('group-of-sites-viewer');
    await lateViewer.until('evacuationInProgress on connect', () => lateViewer.inProgress[0]);

    expect((await admin.end({ siteId: fixture.siteId, evacuationSessionId: sessionId })).status).toBe(
      'success',
    );
    await viewer.until('evacuationEnded', () => viewer.ended[0]);
    await pause(QUIET_MS);
    const evacuationFrames = [
      SAFETY_EVENTS.evacuationInProgress,
      SAFETY_EVENTS.evacuating,
      SAFETY_EVENTS.evacuationEnded,
    ] as string[];
    for (const outsider of [otherClient, crewManager])
      expect(outsider.framesHeard.filter((frame) => evacuationFrames.includes(frame))).toEqual([]);
    expect((await crewManager.requestEvacuation()).status).toBe('error');
  });
});
