import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE, seedDemo } from '../../server/db/demoSeed';
import { activities, sites } from '../../server/db/schema';
import { addDays } from '../../src/domain/attendance';
import type { Activity, ActivitySummary } from '../../src/domain/schemas/productivity';
import { localTime } from '../../src/domain/workshiftClock';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createTestDatabase } from './helpers/testDatabase';

describe('the demo site’s eTQR productivity', () => {
  let t: TestApp;
  let siteId: number;
  let today: string;

  beforeAll(async () => {
    t = await startTestApp();
    const [site] = await t.db.select().from(sites).where(eq(sites.name, DEMO_SITE));
    siteId = site.id;
    today = localTime(new Date(), site.timezone).date;
  });
  afterAll(() => t.close());

  it('has a week of activities of six crews in mixed statuses, with booked figures and delays', async () => {
    const token = await t.loginAs('group-of-sites-admin');
    const reply = await t.call(token, {
      method: 'GET',
      url: `/api/sites/${siteId}/activity?from=${addDays(today, -6)}&to=${today}&perPage=500`,
    });
    expect(reply.statusCode).toBe(200);
    const rows = reply.json.data as Activity[];
    expect(rows).toHaveLength(42);
    expect(new Set(rows.map((a) => a.day)).size).toBe(7);
    expect(new Set(rows.map((a) => a.crew?.name)).size).toBe(6);
    const statuses = new Set(rows.map((a) => a.status));
    for (const status of ['assigned', 'in_progress', 'delayed', 'in_review', 'approved_by_cm', 'approved'])
      expect(statuses, status).toContain(status);
    expect(rows.some((a) => a.delays.length > 0)).toBe(true);
    const past = rows.filter((a) => a.day < today && a.status !== 'assigned');
    expect(past.every((a) => a.installed_quantity !== null && a.actual_hours_typed)).toBe(true);
    expect(past.every((a) => a.gain_hours !== null && a.loss_hours !== null)).toBe(true);
    const summary = (reply.json as unknown as { summary: ActivitySummary }).summary;
    expect(summary.by_crew).toHaveLength(6);
    expect(summary.by_delay_code.length).toBeGreaterThan(0);
    // Approvals in both steps are possible right away.
    expect(rows.some((a) => a.actions.includes('approve') && a.status === 'in_review')).toBe(true);
    expect(rows.some((a) => a.actions.includes('approve') && a.status === 'approved_by_cm')).toBe(true);
  });

  it('gives the crew manager its two crews’ activities, each with a history that ends at its status', async () => {
    const token = await t.loginAs('crew-manager');
    const reply = await t.call(token, {
      method: 'GET',
      url: `/api/sites/${siteId}/activity?from=${addDays(today, -6)}&to=${today}&perPage=500`,
    });
    const rows = reply.json.data as Activity[];
    expect(new Set(rows.map((a) => a.crew?.name))).toEqual(new Set(['Formwork A', 'Formwork B']));
    const reviewed = rows.find((a) => a.status === 'approved_by_cm') as Activity;
    const detail = await t.call(token, {
      method: 'GET',
      url: `/api/sites/${siteId}/activity/${reviewed.id}`,
    });
    const history = detail.json.data.history as { from_status: string; to_status: string }[];
    expect(history.map((h) => h.to_status)).toEqual(['in_progress', 'done', 'in_review', 'approved_by_cm']);
    const [{ mismatched }] = (
      (await t.db.execute(sql`
        select count(*)::int as mismatched from activities a
        where a.site_id = ${siteId} and a.status <> coalesce((
          select s.to_status from activity_status_changes s where s.activity_id = a.id
          order by s.id desc limit 1), 'assigned')`)) as unknown as { rows: { mismatched: number }[] }
    ).rows;
    expect(Number(mismatched)).toBe(0);
  });

  it('is the same every time it is seeded', async () => {
    const now = new Date('2026-11-20T09:00:00Z');
    const seeded = async () => {
      const database = await createTestDatabase();
      try {
        await seedDemo(database.db, now);
        return (
          await database.db
            .select({
              name: activities.name,
              day: activities.day,
              status: activities.status,
              installed: activities.installedQuantity,
            })
            .from(activities)
            .orderBy(activities.day, activities.name)
        ).map((row) => JSON.stringify(row));
      } finally {
        await database.dispose();
      }
    };
    const first = await seeded();
    expect(first).toHaveLength(42);
    expect(await seeded()).toEqual(first);
  });
});
