import { and, asc, eq } from 'drizzle-orm';
import { cornerRing } from '../../src/domain/floorValidation';
import type { InventoryItem } from '../../src/domain/inventory';
import { containsPoint } from '../../src/domain/polygon';
import { inventoryMessages, type PlaceDeviceBody } from '../../src/domain/schemas/inventory';
import type { Db } from '../db/database';
import type { Executor } from '../db/executor';
import { inventoryItems, zones } from '../db/schema';
import type { requireFloor } from '../floors/floorAccess';
import { notFound, unprocessable } from '../http/errors';
import { checkApproval, placementNeedsEvidence, recordApproval } from '../installation/anchorApprovalService';
import { loadRadioSettings } from '../installation/radioSettingsStore';
import { toInventoryItem } from './inventoryRows';

type FloorRow = Awaited<ReturnType<typeof requireFloor>>;

/** A device of the floor's site, or 404: another site's device does not exist for this floor. */
export async function requireSiteDevice(db: Db, siteId: number, inventoryId: number) {
  const [item] = await db
    .select()
    .from(inventoryItems)
    .where(and(eq(inventoryItems.id, inventoryId), eq(inventoryItems.siteId, siteId)))
    .limit(1);
  if (!item) throw notFound('Inventory item');
  return item;
}

/** The first zone of the floor (by id) containing the point, in the lat/long frame zones are drawn in. */
export async function zoneAt(
  db: Executor,
  floorId: number,
  lat: number,
  long: number,
): Promise<number | null> {
  const floorZones = await db
    .select({ id: zones.id, ring: zones.coordinates })
    .from(zones)
    .where(eq(zones.floorId, floorId))
    .orderBy(asc(zones.id));
  return floorZones.find((zone) => containsPoint(zone.ring, [long, lat]))?.id ?? null;
}

/**
 * Puts an anchor or a sink at a point of the floor (installation). Helmets report their own
 * position and are refused; a point outside the floor's corners is refused.
 */
export async function placeDevice(
  db: Db,
  floor: FloorRow,
  inventoryId: number,
  body: PlaceDeviceBody,
  userId: number,
): Promise<InventoryItem> {
  const item = await requireSiteDevice(db, floor.siteId, inventoryId);
  if (item.type === 'helmet') throw unprocessable({ type: inventoryMessages.helmetByHand });
  if (body.is_approved !== undefined && item.type !== 'anchor')
    throw unprocessable({ is_approved: inventoryMessages.approveAnchorsOnly });
  const corners = cornerRing({
    a: { lat: floor.aLat, long: floor.aLong },
    b: { lat: floor.bLat, long: floor.bLong },
    c: { lat: floor.cLat, long: floor.cLong },
    d: { lat: floor.dLat, long: floor.dLong },
  });
  if (!containsPoint(corners, [body.long, body.lat]))
    throw unprocessable({ coordinates: inventoryMessages.outsideFloor });
  const at = { lat: body.lat, long: body.long };
  const approvedAfter = body.is_approved ?? item.isApproved;
  // Approving here is approving: the same evidence as /installation/anchor/approve, judged
  // against the point it is placed at (no planning anchor named), and the same audit row.
  const checked =
    approvedAfter && placementNeedsEvidence(item, approvedAfter, at)
      ? await checkApproval(
          db,
          item,
          { at, planningAnchor: null },
          (await loadRadioSettings(db, floor.siteId)).approval,
          body.override_reason,
        )
      : null;
  const [row] = await db
    .update(inventoryItems)
    .set({
      floorId: floor.id,
      zoneId: await zoneAt(db, floor.id, body.lat, body.long),
      lat: body.lat,
      long: body.long,
      isApproved: approvedAfter,
      updatedAt: new Date(),
    })
    .where(eq(inventoryItems.id, item.id))
    .returning();
  if (!row) throw notFound('Inventory item');
  if (checked)
    await recordApproval(db, {
      item,
      action: 'approve',
      floorId: floor.id,
      planningAnchorId: null,
      at,
      checked,
      userId,
    });
  return toInventoryItem(row);
}
