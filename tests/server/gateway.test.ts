import type { CubeApi, Query } from '@cubejs-client/core';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../../server/db/demoSeed';
import { workers } from '../../server/db/schema';
import { createGatewayClient } from '../../src/api/gateway';
import { cubeClient, type GatewayWorld, gatewayUrl, seedGatewayWorld } from './helpers/gatewayFixture';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';

/**
 * The analytics gateway as the stock @cubejs-client/core sees it (issue 16): Cube's REST protocol
 * with a user's session token, the cubes' members, validation that names what it refuses, and
 * every query kept to the caller's sites.
 */
let t: TestApp;
let other: OtherTenant;
let world: GatewayWorld;
let apiUrl: string;
let admin: CubeApi;
let adminToken: string;

const presence = (more: Partial<Query>): Query => ({
  ...more,
  filters: [
    { member: 'Presence.floorId', operator: 'equals', values: [String(world.floorId)] },
    ...(more.filters ?? []),
  ],
});

/** The RequestError the stock client throws, with its status and message. */
async function refusal(load: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = (await load.then(
    () => null,
    (e: unknown) => e,
  )) as { status?: number; message?: string } | null;
  expect(error, 'the load should have been refused').not.toBeNull();
  return { status: error?.status ?? 0, message: error?.message ?? '' };
}

beforeAll(async () => {
  t = await startTestApp();
  other = await seedOtherTenant(t.db);
  world = await seedGatewayWorld(t.db, other);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = gatewayUrl(t.app.server.address());
  adminToken = await t.loginAs('group-of-sites-admin');
  admin = cubeClient(adminToken, apiUrl);
});

afterAll(() => t.close());

describe('the gateway under the stock Cube client', () => {
  it('sums worker-seconds and hours by floor and zone, ordered and limited', async () => {
    const result = await admin.load(
      presence({
        measures: ['Presence.workerSeconds', 'Presence.workerHours', 'Presence.distinctWorkers'],
        dimensions: ['Presence.floorName', 'Presence.zoneName'],
        order: { 'Presence.workerSeconds': 'desc' },
        limit: 2,
      }),
    );
    expect(result.tablePivot()).toEqual([
      {
        'Presence.floorName': 'GW Level 1',
        'Presence.zoneName': 'GW Zone A',
        'Presence.workerSeconds': 330,
        'Presence.workerHours': 330 / 3600,
        'Presence.distinctWorkers': 2,
      },
      {
        'Presence.floorName': 'GW Level 1',
        'Presence.zoneName': 'GW Zone B',
        'Presence.workerSeconds': 50,
        'Presence.workerHours': 50 / 3600,
        'Presence.distinctWorkers': 2,
      },
    ]);
    expect(result.annotation().measures['Presence.workerHours'].type).toBe('number');
  });

  it('buckets by day in the query timezone, within a date range', async () => {
    const byDay = (timezone: string) =>
      admin.load(
        presence({
          measures: ['Presence.workerSeconds'],
          timeDimensions: [
            { dimension: 'Presence.bucket', granularity: 'day', dateRange: ['2025-03-01', '2025-03-31'] },
          ],
          timezone,
        }),
      );
    // 22:00 UTC on the 9th is already the 10th in Dubai.
    expect((await byDay('Asia/Dubai')).rawData()).toEqual([
      {
        'Presence.bucket.day': '2025-03-09T00:00:00.000',
        'Presence.bucket': '2025-03-09T00:00:00.000',
        'Presence.workerSeconds': 180,
      },
      {
        'Presence.bucket.day': '2025-03-10T00:00:00.000',
        'Presence.bucket': '2025-03-10T00:00:00.000',
        'Presence.workerSeconds': 245,
      },
    ]);
    const utc = await byDay('UTC');
    expect(
      utc
        .chartPivot()
        .map((point) => [point.x, point['Presence.workerSeconds']])
        .filter(([, v]) => v),
    ).toEqual([
      ['2025-03-09T00:00:00.000', 210],
      ['2025-03-10T00:00:00.000', 215],
    ]);
    const hours = await admin.load(
      presence({
        measures: ['Presence.distinctWorkers'],
        timeDimensions: [
          {
            dimension: 'Presence.bucket',
            granularity: 'hour',
            dateRange: ['2025-03-10T12:00:00', '2025-03-10T13:59:59'],
          },
        ],
        timezone: 'Asia/Dubai',
      }),
    );
    expect(
      hours.rawData().map((row) => [row['Presence.bucket.hour'], row['Presence.distinctWorkers']]),
    ).toEqual([
      ['2025-03-10T12:00:00.000', 2],
      ['2025-03-10T13:00:00.000', 1],
    ]);
  });

  it("takes each worker's crew on the bucket's local date, and the current role and subcontractor", async () => {
    const by = async (dimension: string) =>
      (
        await admin.load(
          presence({
            measures: ['Presence.workerSeconds'],
            dimensions: [dimension],
            order: [[dimension, 'asc']],
          }),
        )
      )
        .rawData()
        .map((row) => [row[dimension], row['Presence.workerSeconds']]);
    expect(await by('Presence.crewName')).toEqual([
      ['GW Crew 1', 180],
      ['GW Crew 2', 225],
      [null, 20],
    ]);
    expect(await by('Presence.subcontractorName')).toEqual([
      ['GW Sparks Ltd', 300],
      [null, 125],
    ]);
    expect(await by('Presence.workerRoleName')).toEqual([
      ['GW Electrician', 300],
      ['GW Plumber', 105],
      [null, 20],
    ]);
  });

  it('filters: contains, set and notSet, and/or groups, a measure filter, offset', async () => {
    const names = async (query: Partial<Query>) =>
      (
        await admin.load(
          presence({
            measures: ['Presence.workerSeconds'],
            dimensions: ['Presence.workerName'],
            order: { 'Presence.workerName': 'asc' },
            ...query,
          }),
        )
      )
        .rawData()
        .map((row) => [row['Presence.workerName'], row['Presence.workerSeconds']]);
    expect(
      await names({ filters: [{ member: 'Presence.workerName', operator: 'contains', values: ['ALI'] }] }),
    ).toEqual([['GW Alice', 300]]);
    expect(await names({ filters: [{ member: 'Presence.zoneId', operator: 'notSet' }] })).toEqual([
      ['GW Bob', 45],
    ]);
    expect(
      await names({
        filters: [
          {
            or: [
              { member: 'Presence.zoneId', operator: 'equals', values: [String(world.zoneB)] },
              {
                and: [
                  { member: 'Presence.zoneId', operator: 'set' },
                  { member: 'Presence.workerName', operator: 'equals', values: ['GW Bob'] },
                ],
              },
            ],
          },
        ],
      }),
    ).toEqual([
      ['GW Alice', 30],
      ['GW Bob', 60],
      ['GW Carol', 20],
    ]);
    expect(
      await names({ filters: [{ member: 'Presence.workerSeconds', operator: 'gt', values: ['100'] }] }),
    ).toEqual([
      ['GW Alice', 300],
      ['GW Bob', 105],
    ]);
    expect(await names({ offset: 1, limit: 1 })).toEqual([['GW Bob', 105]]);
    const zoneVisits = await admin.load({
      measures: ['ZoneVisits.count'],
      filters: [{ member: 'ZoneVisits.floorId', operator: 'equals', values: [String(world.floorId)] }],
    });
    expect(zoneVisits.rawData()).toEqual([{ 'ZoneVisits.count': 0 }]);
  });

  it('resolves a relative range to local bounds, and compares numbers beyond the column range', async () => {
    const week = await admin.load({
      measures: ['Presence.workerSeconds'],
      timeDimensions: [{ dimension: 'Presence.bucket', dateRange: 'last 7 days' }],
      filters: [{ member: 'Presence.floorId', operator: 'gt', values: ['3000000000'] }],
      timezone: 'Asia/Dubai',
    });
    expect(week.rawData()).toEqual([{ 'Presence.workerSeconds': 0 }]);
    const [from, to] = (week.query().timeDimensions ?? [])[0].dateRange as [string, string];
    expect(from).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000$/);
    expect(to).toMatch(/T23:59:59\.999$/);
    expect(Date.parse(`${to}Z`) - Date.parse(`${from}Z`)).toBe(7 * 86_400_000 - 1);
  });

  it('lists the cubes in the meta format the client reads', async () => {
    const meta = await admin.meta();
    expect(meta.cubes.map((cube) => cube.name)).toEqual([
      'Presence',
      'ZoneVisits',
      'HelmetEvents',
      'Incidents',
      'Evacuations',
    ]);
    expect(meta.resolveMember('Presence.workerSeconds', 'measures')).toMatchObject({
      type: 'number',
      aggType: 'sum',
    });
    expect(meta.resolveMember('Presence.bucket', 'dimensions')).toMatchObject({ type: 'time' });
  });

  it('answers 400 naming an unknown member or a bad value, never 500', async () => {
    const unknown = await refusal(
      admin.load({ measures: ['Presence.workerSeconds'], dimensions: ['Presence.shoeSize'] }),
    );
    expect(unknown).toEqual({ status: 400, message: 'Unknown member: Presence.shoeSize' });
    // A control character in a filter value is refused in the words every other text field uses.
    const nul = await refusal(
      admin.load({
        measures: ['Presence.workerSeconds'],
        filters: [{ member: 'Presence.floorName', operator: 'equals', values: ['Level\u00002'] }],
      }),
    );
    expect(nul).toEqual({ status: 400, message: 'A filter value must not contain control characters' });
    const cases: unknown[] = [
      { measures: ['Nope.count'] },
      { measures: ['Presence.floorName'] },
      { measures: ['Presence.workerSeconds'], timezone: 'Mars/Olympus_Mons' },
      {
        measures: ['Presence.workerSeconds'],
        timeDimensions: [{ dimension: 'Presence.bucket', granularity: 'fortnight' }],
      },
      {
        measures: ['Presence.workerSeconds'],
        timeDimensions: [{ dimension: 'Presence.bucket', dateRange: ['2025-02-30', '2025-03-01'] }],
      },
      {
        measures: ['Presence.workerSeconds'],
        filters: [{ member: 'Presence.floorId', operator: 'gt', values: ['ten'] }],
      },
      { measures: ['Presence.workerSeconds', 'Incidents.count'] },
      { measures: ['Presence.workerSeconds'], limit: -1 },
      {
        measures: ['Presence.workerSeconds'],
        timeDimensions: [{ dimension: 'Presence.bucket', dateRange: ['0999-01-01', '2025-03-01'] }],
      },
      {
        measures: ['Presence.workerSeconds'],
        timeDimensions: [{ dimension: 'Presence.bucket', dateRange: 'since the dawn of time' }],
      },
      [],
    ];
    for (const query of cases) {
      const response = await fetch(`${apiUrl}/load?query=${encodeURIComponent(JSON.stringify(query))}`, {
        headers: { authorization: adminToken },
      });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBeTruthy();
    }
    const notJson = await fetch(`${apiUrl}/load?query=%7Bmeasures`, {
      headers: { authorization: adminToken },
    });
    expect(notJson.status).toBe(400);
  });

  it('cannot be steered into SQL by member names or values', async () => {
    const hostileMember = 'Presence.workerSeconds) from workers; drop table workers; --';
    expect(await refusal(admin.load({ measures: [hostileMember] }))).toEqual({
      status: 400,
      message: `Unknown member: ${hostileMember}`,
    });
    for (const name of ['Presence.constructor', 'Presence.__proto__', 'constructor.name']) {
      expect((await refusal(admin.load({ dimensions: [name] }))).status).toBe(400);
    }
    const hostileValues = ["x' or '1'='1", "'); drop table workers; --", '%', '_'];
    const result = await admin.load(
      presence({
        measures: ['Presence.workerSeconds'],
        filters: [
          {
            or: [
              { member: 'Presence.workerName', operator: 'equals', values: hostileValues },
              { member: 'Presence.workerName', operator: 'contains', values: hostileValues },
            ],
          },
        ],
      }),
    );
    expect(result.rawData()).toEqual([{ 'Presence.workerSeconds': 0 }]);
    const zone = await refusal(
      admin.load({ measures: ['Presence.workerSeconds'], timezone: "UTC'; drop table workers; --" }),
    );
    expect(zone.status).toBe(400);
    const [{ n }] = await t.db.select({ n: count() }).from(workers);
    expect(n).toBeGreaterThan(3);
  });
});

describe('who may query, and what they see', () => {
  const totalOn = async (client: CubeApi, floorId: number) =>
    (
      await client.load({
        measures: ['Presence.workerSeconds'],
        filters: [{ member: 'Presence.floorId', operator: 'equals', values: [String(floorId)] }],
      })
    ).rawData()[0]['Presence.workerSeconds'];

  it("keeps each caller to its own sites: another client's floor has no rows", async () => {
    const otherAdmin = cubeClient(await t.login(other.email('client-admin')), apiUrl);
    expect(await totalOn(otherAdmin, world.floorId)).toBe(0);
    expect(await totalOn(otherAdmin, world.otherFloorId)).toBe(50);
    const everything = await otherAdmin.load({
      measures: ['Presence.workerSeconds'],
      dimensions: ['Presence.siteId'],
    });
    expect(everything.rawData()).toEqual([{ 'Presence.siteId': other.siteId, 'Presence.workerSeconds': 50 }]);
    expect(await totalOn(admin, world.otherFloorId)).toBe(0);
  });

  it('lets a Site Viewer read, refuses a Crew Manager and a Site Engineer (403) and a missing token (401)', async () => {
    const viewer = cubeClient(await t.loginAs('group-of-sites-viewer'), apiUrl);
    expect(await totalOn(viewer, world.floorId)).toBe(425);
    for (const role of ['crew-manager', 'site-engineer'] as const) {
      const client = cubeClient(await t.login(demoEmail(role)), apiUrl);
      expect(await refusal(client.load({ measures: ['Presence.workerSeconds'] }))).toEqual({
        status: 403,
        message: 'Not Authorized',
      });
      expect((await refusal(client.meta())).status).toBe(403);
    }
    expect((await refusal(cubeClient('not-a-session', apiUrl).meta())).status).toBe(401);
  });

  it('speaks POST { query } and Bearer tokens too, and the console client reads typed rows', async () => {
    const query = presence({ measures: ['Presence.workerSeconds'] });
    const response = await fetch(`${apiUrl}/load`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown }).data).toEqual([{ 'Presence.workerSeconds': 425 }]);
    const console = createGatewayClient({ getToken: () => adminToken, baseUrl: apiUrl });
    const reply = await console.load({
      measures: ['Presence.workerHours'],
      dimensions: ['Presence.workerName'],
      filters: [{ member: 'Presence.floorId', operator: 'equals', values: [String(world.floorId)] }],
      order: { 'Presence.workerName': 'asc' },
    });
    const first: number | null = reply.data[0]['Presence.workerHours'];
    expect([reply.data[0]['Presence.workerName'], first]).toEqual(['GW Alice', 300 / 3600]);
  });
});
