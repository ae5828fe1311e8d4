import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidentEvents, incidents, siteSafetySettings } from '../../server/db/schema';
import { readSafetySettings } from '../../server/safety/safetySettings';
import { DEFAULT_ESCALATION_LEVELS } from '../../src/domain/escalation';
import type { HelmetFixture } from './helpers/ingestFixture';
import {
  type SafetyRoutesSuite,
  safetyRoutesRequests,
  startSafetyRoutesSuite,
} from './helpers/safetyRoutesSuite';

describe('acknowledging and resolving incidents, and the site safety settings', () => {
  let suite: SafetyRoutesSuite;
  let helmet: HelmetFixture;
  let serial = 0;

  beforeAll(async () => {
    suite = await startSafetyRoutesSuite();
    helmet = await helmetOn('STEP-1');
  });
  afterAll(() => suite?.close());

  const { call, helmetOn: placeHelmet } = safetyRoutesRequests(() => suite);
  const helmetOn = (tag: string) => placeHelmet(tag, suite.fixture.floor.id, suite.meshId);

  const newIncident = async () => {
    serial += 1;
    const [row] = await suite.t.db
      .insert(incidents)
      .values({
        siteId: suite.fixture.siteId,
        type: 'fall',
        inventoryItemId: helmet.inventoryId,
        workerId: helmet.workerId,
        ts: new Date(Date.UTC(2025, 4, 1, 8, serial)),
        nextEscalationAt: new Date(Date.now() + 5 * 60_000),
      })
      .returning();
    return row.id;
  };
  const post = (action: string, token: string, payload: object) =>
    call(token, { method: 'POST', url: `/api/safety/incident/${action}`, payload });
  const settingsUrl = (siteId: number) => `/api/safety/sites/${siteId}/settings`;

  it('acknowledges with who and when, stops the clock, then resolves; refuses what the state forbids with 409', async () => {
    const id = await newIncident();
    const acknowledged = await post('acknowledge', suite.tokens['group-of-sites-admin'], { incidentId: id });
    expect(acknowledged.statusCode).toBe(200);
    expect(acknowledged.json.message).toBe('Incident acknowledged');
    expect(acknowledged.json.data).toMatchObject({
      id,
      status: 'acknowledged',
      level: 0,
      nextEscalationAt: null,
      acknowledgedBy: { name: 'Demo Site Admin' },
      resolvedAt: null,
    });
    expect(Date.parse(acknowledged.json.data.acknowledgedAt)).toBeGreaterThan(Date.now() - 60_000);

    const twice = await post('acknowledge', suite.tokens['client-admin'], { incidentId: id });
    expect(twice.statusCode).toBe(409);
    expect(twice.json.message).toBe('Incident is already acknowledged');
    const escalate = await post('escelate', suite.tokens['client-admin'], { incidentId: id });
    expect(escalate.statusCode).toBe(409);
    expect(escalate.json.message).toBe('Incident is already acknowledged');

    const resolved = await post('resolve', suite.tokens['safety-demo'], { incidentId: id });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json.message).toBe('Incident resolved');
    expect(resolved.json.data).toMatchObject({
      status: 'resolved',
      acknowledgedBy: { name: 'Demo Site Admin' },
      resolvedBy: { name: 'Demo Safety Demo' },
    });
    for (const action of ['acknowledge', 'resolve', 'escelate']) {
      const refused = await post(action, suite.tokens['client-admin'], { incidentId: id });
      expect(refused.statusCode, action).toBe(409);
      expect(refused.json.message, action).toBe('Incident is already resolved');
    }
    const events = await suite.t.db
      .select({ kind: incidentEvents.kind })
      .from(incidentEvents)
      .where(eq(incidentEvents.incidentId, id))
      .orderBy(asc(incidentEvents.id));
    expect(events.map((e) => e.kind)).toEqual(['acknowledged', 'resolved']);
  });

  it('resolves an open incident at once (a false alarm needs no acknowledgement)', async () => {
    const id = await newIncident();
    const resolved = await post('resolve', suite.tokens['client-admin'], { incidentId: id });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json.data).toMatchObject({
      status: 'resolved',
      acknowledgedAt: null,
      nextEscalationAt: null,
    });
  });

  it('refuses readers, other tenants, unknown incidents and malformed bodies', async () => {
    const id = await newIncident();
    for (const action of ['acknowledge', 'resolve']) {
      for (const role of ['group-of-sites-viewer', 'crew-manager'] as const) {
        const response = await post(action, suite.tokens[role], { incidentId: id });
        expect(response.statusCode, `${action} ${role}`).toBe(403);
      }
      expect((await post(action, suite.otherClientAdmin, { incidentId: id })).statusCode).toBe(404);
      expect((await post(action, suite.tokens['client-admin'], { incidentId: 2_000_000 })).statusCode).toBe(
        404,
      );
      for (const body of [{}, { incidentId: 'x' }, { incidentId: -1 }]) {
        const response = await post(action, suite.tokens['client-admin'], body);
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(Object.keys(response.json.errors ?? {}), JSON.stringify(body)).toEqual(['incidentId']);
      }
    }
    const [row] = await suite.t.db.select().from(incidents).where(eq(incidents.id, id));
    expect(row.status).toBe('open');
  });

  it('reads the default settings until a site admin saves its own, which then drive new schedules', async () => {
    const { siteId } = suite.fixture;
    const read = await call(suite.tokens['group-of-sites-viewer'], {
      method: 'GET',
      url: settingsUrl(siteId),
    });
    expect(read.statusCode).toBe(200);
    expect(read.json.data).toEqual({
      possiblyInsideHours: null,
      escalationLevels: DEFAULT_ESCALATION_LEVELS,
    });

    const settings = {
      possiblyInsideHours: 2.5,
      escalationLevels: [
        { level: 1, afterMinutes: 0.5, contacts: 'site', recipients: ['gate@example.com'] },
        { level: 2, afterMinutes: 3, contacts: 'client', recipients: [] },
        { level: 3, afterMinutes: 15, contacts: 'none', recipients: ['ops@example.com', 'hse@example.com'] },
      ],
    };
    const saved = await call(suite.tokens['group-of-sites-admin'], {
      method: 'PUT',
      url: settingsUrl(siteId),
      payload: settings,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json.message).toBe('Safety settings saved');
    expect(saved.json.data).toEqual(settings);
    expect(await readSafetySettings(suite.t.db, siteId)).toEqual(settings);
    const [listed] = (
      await call(suite.tokens['client-admin'], {
        method: 'GET',
        url: `/api/safety/incident/getAll/${siteId}/2025-05-01/2025-05-01`,
      })
    ).json.data;
    expect(listed.levelCount).toBe(3);
  });

  it('refuses bad settings with a message per field and keeps what was saved', async () => {
    const { siteId } = suite.fixture;
    const before = await suite.t.db.select().from(siteSafetySettings);
    const put = (payload: object) =>
      call(suite.tokens['client-admin'], { method: 'PUT', url: settingsUrl(siteId), payload });
    const bad = await put({
      possiblyInsideHours: 13,
      escalationLevels: [
        { level: 1, afterMinutes: 0, contacts: 'site', recipients: ['not an address'] },
        { level: 3, afterMinutes: 5, contacts: 'nobody', recipients: [] },
        { level: 3, afterMinutes: 5, contacts: 'none', recipients: [] },
      ],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json.errors).toEqual({
      possiblyInsideHours:
        'Possibly inside must be more than 0 and at most 12 hours, or blank for the start of the shift',
      'escalationLevels.0.afterMinutes': 'Delay must be from 0.5 to 1440 minutes',
      'escalationLevels.0.recipients': 'Each recipient must be an e-mail address',
      'escalationLevels.1.level': 'Escalation levels must be numbered 1, 2, 3… in order',
      'escalationLevels.1.contacts': 'Choose who this level notifies',
      'escalationLevels.2.recipients': 'A level that notifies no contacts needs at least one e-mail address',
    });
    expect((await put({ possiblyInsideHours: null, escalationLevels: [] })).json.errors).toEqual({
      escalationLevels: 'Add at least one escalation level',
    });
    for (const body of [{ possiblyInsideHours: 'soon', escalationLevels: [] }, { escalationLevels: [] }]) {
      const response = await put(body);
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json.errors ?? {})).toEqual(['possiblyInsideHours']);
    }
    expect(await suite.t.db.select().from(siteSafetySettings)).toEqual(before);
  });

  it('lets only site admins and above change settings, on their own sites', async () => {
    const { siteId } = suite.fixture;
    const payload = {
      possiblyInsideHours: null,
      escalationLevels: [{ level: 1, afterMinutes: 5, contacts: 'site', recipients: [] }],
    };
    for (const role of ['group-of-sites-viewer', 'safety-demo', 'crew-manager'] as const) {
      const response = await call(suite.tokens[role], { method: 'PUT', url: settingsUrl(siteId), payload });
      expect(response.statusCode, role).toBe(403);
    }
    expect(
      (await call(suite.tokens['crew-manager'], { method: 'GET', url: settingsUrl(siteId) })).statusCode,
    ).toBe(403);
    for (const method of ['GET', 'PUT'] as const) {
      const response = await call(suite.otherClientAdmin, { method, url: settingsUrl(siteId), payload });
      expect(response.statusCode, method).toBe(404);
    }
    const otherSite = await call(suite.tokens['super-admin'], {
      method: 'GET',
      url: settingsUrl(suite.other.siteId),
    });
    expect(otherSite.statusCode).toBe(200);
  });
});
