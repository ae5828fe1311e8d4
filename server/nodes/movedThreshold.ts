import { eq } from 'drizzle-orm';
import { DEFAULT_ANCHOR_MOVED_THRESHOLD_M } from '../../src/domain/nodeHealth';
import type { Db } from '../db/database';
import { siteMaintenanceSettings } from '../db/schema';

/** The site's "anchor moved" threshold in metres: its setting, or the default when it set none. */
export async function anchorMovedThreshold(db: Db, siteId: number): Promise<number> {
  const [row] = await db
    .select({ threshold: siteMaintenanceSettings.anchorMovedThresholdM })
    .from(siteMaintenanceSettings)
    .where(eq(siteMaintenanceSettings.siteId, siteId))
    .limit(1);
  return row?.threshold ?? DEFAULT_ANCHOR_MOVED_THRESHOLD_M;
}
