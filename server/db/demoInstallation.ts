import { and, eq } from 'drizzle-orm';
import { ensurePositionPartitions } from '../analytics/positionPartitions';
import type { Db } from './database';
import type { Tx } from './executor';
import {
  buildings,
  floors,
  inventoryItems,
  networks,
  nodeDiagnostics,
  planningAnchors,
  walls,
} from './schema';

/**
 * Installation planning on the demo's North Block · Level 1 (issue 19): its walls (a concrete
 * core, drywall partitions, a glazed meeting room), planning anchors completing the installed
 * 3 × 3 grid, and three anchors installed but not yet approved, each of which has reported where
 * the network computes it: ANC-0101 within 0.2 m of P-01, ANC-0102 1.2 m from P-02 (the approval
 * needs a reason), ANC-0103 beside P-03 but on a weak link. The simulator keeps them reporting
 * at that first computed position (server/simulator/siteModel.ts) until they are approved.
 */

/** Fractions of the floor: x along corner a→b, y along a→d. */
type Fraction = [number, number];

const WALLS: {
  name: string;
  material: 'drywall' | 'brick' | 'concrete' | 'glass' | 'metal';
  points: Fraction[];
}[] = [
  {
    name: 'Core wall',
    material: 'concrete',
    points: [
      [0.42, 0.3],
      [0.58, 0.3],
      [0.58, 0.7],
      [0.42, 0.7],
      [0.42, 0.3],
    ],
  },
  {
    name: 'Stair partition',
    material: 'brick',
    points: [
      [0.2, 0],
      [0.2, 0.45],
    ],
  },
  {
    name: 'Office partition',
    material: 'drywall',
    points: [
      [0.75, 0.55],
      [1, 0.55],
    ],
  },
  {
    name: 'Meeting room glass',
    material: 'glass',
    points: [
      [0.75, 0.55],
      [0.75, 1],
    ],
  },
  {
    name: 'Riser door',
    material: 'metal',
    points: [
      [0.42, 0.5],
      [0.35, 0.5],
    ],
  },
];

const PLANNED: { anchorId: string; at: Fraction }[] = [
  { anchorId: 'P-01', at: [0.3, 0.15] },
  { anchorId: 'P-02', at: [0.7, 0.15] },
  { anchorId: 'P-03', at: [0.3, 0.85] },
  { anchorId: 'P-04', at: [0.7, 0.85] },
  { anchorId: 'P-05', at: [0.9, 0.7] },
];

/** Installed, unapproved: the planning anchor it was mounted for, its offset (m east, m south), its link. */
const INSTALLED: { tag: string; planned: string; offsetM: [number, number]; linkQuality: number }[] = [
  { tag: 'ANC-0101', planned: 'P-01', offsetM: [0.15, 0.1], linkQuality: 78 },
  { tag: 'ANC-0102', planned: 'P-02', offsetM: [0, 1.2], linkQuality: 64 },
  { tag: 'ANC-0103', planned: 'P-03', offsetM: [-0.2, 0.1], linkQuality: 34 },
];

const METRES_PER_DEGREE = 111_320;

export async function seedDemoInstallation(tx: Tx, siteId: number, now: Date): Promise<void> {
  const [row] = await tx
    .select({ floor: floors })
    .from(floors)
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .where(and(eq(buildings.siteId, siteId), eq(buildings.name, 'North Block'), eq(floors.name, 'Level 1')))
    .limit(1);
  if (!row) return;
  const floor = row.floor;
  const at = ([x, y]: Fraction) => ({
    lat: floor.aLat + x * (floor.bLat - floor.aLat) + y * (floor.dLat - floor.aLat),
    long: floor.aLong + x * (floor.bLong - floor.aLong) + y * (floor.dLong - floor.aLong),
  });
  await tx.insert(walls).values(
    WALLS.map((wall) => ({
      floorId: floor.id,
      name: wall.name,
      material: wall.material,
      points: wall.points.map((point): [number, number] => {
        const { lat, long } = at(point);
        return [long, lat];
      }),
    })),
  );
  const planned = new Map(PLANNED.map((anchor) => [anchor.anchorId, at(anchor.at)]));
  await tx
    .insert(planningAnchors)
    .values(PLANNED.map((anchor) => ({ floorId: floor.id, anchorId: anchor.anchorId, ...at(anchor.at) })));

  const [mesh] = await tx
    .select({ id: networks.id })
    .from(networks)
    .where(and(eq(networks.siteId, siteId), eq(networks.name, 'Tower A mesh')))
    .limit(1);
  const items = await tx
    .insert(inventoryItems)
    .values(
      INSTALLED.map((anchor) => ({
        siteId,
        networkId: mesh?.id ?? null,
        wntInventoryId: anchor.tag,
        type: 'anchor',
        floorId: floor.id,
        isOnline: true,
        isActive: true,
        lastSeen: now,
      })),
    )
    .returning({ id: inventoryItems.id, tag: inventoryItems.wntInventoryId });
  await ensurePositionPartitions(tx as unknown as Db, [now.getTime()], 'node_diagnostics');
  await tx.insert(nodeDiagnostics).values(
    INSTALLED.map((anchor, index) => {
      const target = planned.get(anchor.planned) ?? at([0.5, 0.5]);
      const [east, south] = anchor.offsetM;
      const lat = target.lat - south / METRES_PER_DEGREE;
      const long = target.long + east / (METRES_PER_DEGREE * Math.cos((target.lat * Math.PI) / 180));
      return {
        siteId,
        inventoryItemId: items[index].id,
        floorId: floor.id,
        networkId: mesh?.id ?? null,
        nodeId: anchor.tag,
        type: 'anchor',
        bufferUsage: 4,
        linkQuality: anchor.linkQuality,
        batteryVoltage: 3.6,
        displacementError: null,
        lat,
        long,
        neighbors: [],
        ts: now,
      };
    }),
  );
}
