import { eq, sql } from 'drizzle-orm';
import type { Database } from '../server/db/database';
import { DEMO_SITE, seedDemo } from '../server/db/demoSeed';
import { ensureReferenceData } from '../server/db/referenceData';
import {
  crewAssignments,
  crews,
  inventoryItems,
  sites,
  workers,
  workshiftAssignments,
  workshifts,
} from '../server/db/schema';

export const TOTAL_WORKERS = 10_000;

/**
 * The demo site topped up to `total` workers, each with a helmet, a crew and a shift, on a freshly
 * migrated database (the worker list and worker table benchmarks): its site row.
 */
export async function seedWorkforceAtScale(database: Database, total = TOTAL_WORKERS) {
  const { db } = database;
  await database.migrate();
  await ensureReferenceData(db);
  await seedDemo(db);
  const [site] = await db.select().from(sites).where(eq(sites.name, DEMO_SITE));
  const [existing] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(workers)
    .where(eq(workers.siteId, site.id));
  const crewIds = (await db.select({ id: crews.id }).from(crews).where(eq(crews.siteId, site.id))).map(
    (c) => c.id,
  );
  const shiftIds = (
    await db.select({ id: workshifts.id }).from(workshifts).where(eq(workshifts.siteId, site.id))
  ).map((s) => s.id);
  const syllables = ['al', 'mo', 'ra', 'san', 'ke', 'ri', 'dev', 'na', 'ha', 'li', 'jo', 'pe'];
  const nameOf = (i: number) =>
    `${syllables[i % 12]}${syllables[Math.floor(i / 12) % 12]} ${syllables[Math.floor(i / 144) % 12]}${syllables[(i * 7) % 12]} ${i}`;
  for (let from = existing.n; from < total; from += 1000) {
    const count = Math.min(1000, total - from);
    await db.transaction(async (tx) => {
      const rows = await tx
        .insert(workers)
        .values(
          Array.from({ length: count }, (_, k) => ({
            siteId: site.id,
            name: nameOf(from + k),
            workerTagId: `EMP-${10_000 + from + k}`,
          })),
        )
        .returning({ id: workers.id });
      await tx.insert(inventoryItems).values(
        rows.map((row, k) => ({
          siteId: site.id,
          wntInventoryId: `HLM-B${from + k}`,
          type: 'helmet',
          workerId: row.id,
          assignedAt: new Date(),
        })),
      );
      await tx.insert(crewAssignments).values(
        rows.map((row, k) => ({
          workerId: row.id,
          crewId: crewIds[k % crewIds.length],
          assignedAt: '2025-01-01',
        })),
      );
      await tx.insert(workshiftAssignments).values(
        rows.map((row, k) => ({
          workerId: row.id,
          workshiftId: shiftIds[k % shiftIds.length],
          assignedAt: '2025-01-01',
        })),
      );
    });
  }
  await db.execute(sql`analyze`);
  return site;
}
