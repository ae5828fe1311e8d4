import { and, asc, eq } from 'drizzle-orm';
import type { Db } from './database';
import { buildings, crews, floors, gridFields, subcontractors, workPermits } from './schema';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const HOUR_MS = 3_600_000;
/** The demo footprint is 80 m by 50 m: column lines A–I every 10 m along a→b, rows 1–6 along a→d. */
const DEMO_GRID = {
  columns: 'ABCDEFGHI'.split('').map((label, index) => ({ label, offset_m: index * 10 })),
  rows: [1, 2, 3, 4, 5, 6].map((label, index) => ({ label: String(label), offset_m: index * 10 })),
};

/**
 * The demo's work permits (issue 19) on North Block · Ground Floor, with the floor's structural
 * grid: PTW-104, an active hot-work permit held by the crew Formwork A, in force from two hours
 * before the seeding for ten; PTW-101, work at height that expired yesterday; PTW-105, a draft
 * confined-space permit of a subcontractor for tomorrow.
 */
export async function seedDemoPermits(tx: Tx, siteId: number, now: Date): Promise<void> {
  const [floor] = await tx
    .select({ floor: floors })
    .from(floors)
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .where(
      and(eq(buildings.siteId, siteId), eq(buildings.name, 'North Block'), eq(floors.name, 'Ground Floor')),
    );
  const [crew] = await tx
    .select({ id: crews.id })
    .from(crews)
    .where(and(eq(crews.siteId, siteId), eq(crews.name, 'Formwork A')));
  const [subcontractor] = await tx
    .select({ id: subcontractors.id })
    .from(subcontractors)
    .where(eq(subcontractors.siteId, siteId))
    .orderBy(asc(subcontractors.id))
    .limit(1);
  if (!floor || !crew || !subcontractor) return;
  const f = floor.floor;
  // A point as fractions of the floor's width (a→b) and depth (a→d): [long, lat].
  const at = (x: number, y: number): [number, number] => [
    f.aLong + x * (f.bLong - f.aLong),
    f.aLat + y * (f.dLat - f.aLat),
  ];
  const box = (x0: number, y0: number, x1: number, y1: number) => [
    at(x0, y0),
    at(x1, y0),
    at(x1, y1),
    at(x0, y1),
  ];
  const t = now.getTime();
  await tx.insert(gridFields).values({ floorId: f.id, name: 'Structural grid', axes: DEMO_GRID });
  await tx.insert(workPermits).values([
    {
      siteId,
      floorId: f.id,
      number: 'PTW-104',
      type: 'hotWork',
      area: box(0.56, 0.1, 0.76, 0.4),
      holderCrewId: crew.id,
      validFrom: new Date(t - 2 * HOUR_MS),
      validTo: new Date(t + 10 * HOUR_MS),
      status: 'active',
    },
    {
      siteId,
      floorId: f.id,
      number: 'PTW-101',
      type: 'workAtHeight',
      area: box(0.05, 0.6, 0.3, 0.9),
      holderCrewId: crew.id,
      validFrom: new Date(t - 34 * HOUR_MS),
      validTo: new Date(t - 24 * HOUR_MS),
      status: 'active',
    },
    {
      siteId,
      floorId: f.id,
      number: 'PTW-105',
      type: 'confinedSpace',
      area: box(0.86, 0.55, 0.96, 0.8),
      holderSubcontractorId: subcontractor.id,
      validFrom: new Date(t + 22 * HOUR_MS),
      validTo: new Date(t + 30 * HOUR_MS),
      status: 'draft',
    },
  ]);
}
