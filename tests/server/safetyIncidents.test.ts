import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, incidents } from '../../server/db/schema';
import type { DemoFloorFixture, HelmetFixture } from './helpers/ingestFixture';
import {
  type SafetyRoutesSuite,
  safetyRoutesRequests,
  startSafetyRoutesSuite,
} from './helpers/safetyRoutesSuite';
import type { TestApp } from './helpers/testApp';

describe('safety REST routes', () => {
  let suite: SafetyRoutesSuite;
  let t: TestApp;
  let fixture: DemoFloorFixture;
  let meshId: number;
  let otherClientAdmin: string;
  let tokens: SafetyRoutesSuite['tokens'];

  beforeAll(async () => {
    suite = await startSafetyRoutesSuite();
    ({ t, fixture, meshId, otherClientAdmin, tokens } = suite);
  });
  afterAll(() => suite?.close());

  const { call, helmetOn } = safetyRoutesRequests(() => suite);

  describe('incidents', () => {
    let helmet: HelmetFixture;
    const ids: Record<'sos' | 'fall' | 'oldRestricted' | 'yesterdayNoMotion', number> = {
      sos: 0,
      fall: 0,
      oldRestricted: 0,
      yesterdayNoMotion: 0,
    };

    beforeAll(async () => {
      helmet = await helmetOn('SAFE-I1', fixture.floor.id, meshId);
      const insert = async (type: string, ts: string, zoneId: number | null = null) => {
        const [row] = await t.db
          .insert(incidents)
          .values({
            siteId: fixture.siteId,
            type,
            inventoryItemId: helmet.inventoryId,
            workerId: helmet.workerId,
            floorId: fixture.floor.id,
            zoneId,
            ts: new Date(ts),
          })
          .returning();
        return row.id;
      };
      ids.sos = await insert('sos', '2025-03-10T09:15:00Z', fixture.zoneId('Fit-out area'));
      ids.fall = await insert('fall', '2025-03-10T14:30:00Z');
      ids.yesterdayNoMotion = await insert('noMotion', '2025-03-09T23:59:00Z');
      ids.oldRestricted = await insert(
        'restrictedZone',
        '2025-02-01T08:00:00Z',
        fixture.zoneId('Stair core'),
      );
    });

    const list = (token: string, path: string) =>
      call(token, { method: 'GET', url: `/api/safety/incident/getAll/${path}` });
    const escalate = (token: string, incidentId: unknown) =>
      call(token, { method: 'POST', url: '/api/safety/incident/escelate', payload: { incidentId } });

    it('lists the incidents of a day, newest first, with worker, floor and zone names', async () => {
      const response = await list(tokens['group-of-sites-viewer'], `${fixture.siteId}/2025-03-10/2025-03-10`);
      expect(response.statusCode).toBe(200);
      expect(response.json.data.map((i: { id: number }) => i.id)).toEqual([ids.fall, ids.sos]);
      expect(response.json.data[1]).toEqual({
        id: ids.sos,
        siteId: fixture.siteId,
        type: 'sos',
        status: 'open',
        ts: '2025-03-10T09:15:00.000Z',
        workerId: helmet.workerId,
        workerName: helmet.workerName,
        wntInventoryId: 'SAFE-I1',
        floorId: fixture.floor.id,
        floorName: 'Level 1',
        zoneId: fixture.zoneId('Fit-out area'),
        zoneName: 'Fit-out area',
        escalatedAt: null,
        escalatedBy: null,
        level: 0,
        levelCount: 2,
        nextEscalationAt: null,
        acknowledgedAt: null,
        acknowledgedBy: null,
        resolvedAt: null,
        resolvedBy: null,
        permit: null,
      });
    });

    it('takes date-times as UTC and filters by status', async () => {
      const window = `${fixture.siteId}/2025-03-09T23:00:00/2025-03-10T10:00:00`;
      const all = await list(tokens['safety-demo'], window);
      expect(all.json.data.map((i: { id: number }) => i.id)).toEqual([ids.sos, ids.yesterdayNoMotion]);
      const open = await list(tokens['safety-demo'], `${window}/open`);
      expect(open.json.data).toHaveLength(2);
      const escalated = await list(tokens['safety-demo'], `${window}/escalated`);
      expect(escalated.json.data).toEqual([]);
    });

    it('refuses bad dates and statuses with a clear 400', async () => {
      const cases = [
        [`${fixture.siteId}/yesterday/2025-03-10`, /^From must be an ISO date/],
        [`${fixture.siteId}/2025-03-10/2025-02-30`, /^To must be an ISO date/],
        [`${fixture.siteId}/2025-03-11/2025-03-10`, /^From must not be after To$/],
        [
          `${fixture.siteId}/2025-03-10/2025-03-10/closed`,
          /^Status must be one of open, escalated, acknowledged, resolved$/,
        ],
      ] as const;
      for (const [path, message] of cases) {
        const response = await list(tokens['group-of-sites-admin'], path);
        expect(response.statusCode, path).toBe(400);
        expect(response.json.message, path).toMatch(message);
      }
    });

    it("answers 404 for another client's site and 403 to a crew manager", async () => {
      expect((await list(otherClientAdmin, `${fixture.siteId}/2025-03-10/2025-03-10`)).statusCode).toBe(404);
      expect((await list(tokens['crew-manager'], `${fixture.siteId}/2025-03-10/2025-03-10`)).statusCode).toBe(
        403,
      );
    });

    it('lets a site viewer read but not escalate, and a crew manager do neither', async () => {
      for (const role of ['group-of-sites-viewer', 'crew-manager'] as const) {
        const response = await escalate(tokens[role], ids.fall);
        expect(response.statusCode, role).toBe(403);
        expect(response.json.message).toBe('Not Authorized');
      }
      expect((await escalate(otherClientAdmin, ids.fall)).statusCode).toBe(404);
      expect((await escalate(tokens['group-of-sites-admin'], 2_000_000)).statusCode).toBe(404);
      const [row] = await t.db.select().from(incidents).where(eq(incidents.id, ids.fall));
      expect(row.status).toBe('open');
    });

    it("escalates one level at a time: records who, e-mails each level's contacts, refuses past the last", async () => {
      const outboxBefore = await t.db.select().from(emailOutbox);
      const response = await escalate(tokens['group-of-sites-admin'], ids.sos);
      expect(response.statusCode).toBe(200);
      expect(response.json.message).toBe('Incident escalated');
      expect(response.json.data).toMatchObject({
        id: ids.sos,
        status: 'escalated',
        level: 1,
        escalatedBy: { name: 'Demo Site Admin' },
      });
      expect(Date.parse(response.json.data.escalatedAt)).toBeGreaterThan(Date.now() - 60_000);
      // The default levels: the next step ten minutes after this one.
      expect(
        Date.parse(response.json.data.nextEscalationAt) - Date.parse(response.json.data.escalatedAt),
      ).toBe(10 * 60_000);

      const mails = (await t.db.select().from(emailOutbox).orderBy(asc(emailOutbox.id))).slice(
        outboxBefore.length,
      );
      // Level 1: the demo client's admin and the Tower A site admin; not the viewer, not the other client.
      expect(mails.map((m) => m.toAddress).sort()).toEqual([
        'client-admin@demo.sitewatch.dev',
        'site-admin@demo.sitewatch.dev',
      ]);
      for (const mail of mails) {
        expect(mail.subject).toBe(`Safety incident escalated (level 1): SOS alarm — ${helmet.workerName}`);
        expect(mail.body).toContain('Demo Site Admin escalated safety incident');
        expect(mail.body).toContain(`Worker: ${helmet.workerName} (helmet SAFE-I1)`);
        expect(mail.body).toContain('Place: Tower A / Level 1 / Fit-out area');
        expect(mail.link).toBe('http://sitewatch.test/safety');
      }

      // A step someone else took meanwhile is not repeated.
      const stale = await call(tokens['client-admin'], {
        method: 'POST',
        url: '/api/safety/incident/escelate',
        payload: { incidentId: ids.sos, level: 0 },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json.message).toBe('The incident changed meanwhile: look at it again');

      // Level 2 (the default): the client's admins only.
      const second = await escalate(tokens['client-admin'], ids.sos);
      expect(second.statusCode).toBe(200);
      expect(second.json.data).toMatchObject({
        level: 2,
        nextEscalationAt: null,
        escalatedBy: { name: 'Demo Client Admin' },
      });
      const again = await escalate(tokens['client-admin'], ids.sos);
      expect(again.statusCode).toBe(409);
      expect(again.json.message).toBe('Incident is already at the last escalation level');
      const allMails = await t.db.select().from(emailOutbox).orderBy(asc(emailOutbox.id));
      expect(allMails.slice(outboxBefore.length + 2).map((m) => m.toAddress)).toEqual([
        'client-admin@demo.sitewatch.dev',
      ]);

      const escalated = await list(
        tokens['group-of-sites-viewer'],
        `${fixture.siteId}/2025-03-10/2025-03-10/escalated`,
      );
      expect(escalated.json.data.map((i: { id: number }) => i.id)).toEqual([ids.sos]);
    });
  });
});
