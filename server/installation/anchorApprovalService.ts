import { and, desc, eq } from 'drizzle-orm';
import {
  type ApprovalEvidence,
  approvalRefusal,
  failedApprovalChecks,
  hasOverrideReason,
  liveLinkQuality,
} from '../../src/domain/anchorApproval';
import type { LatLong } from '../../src/domain/floor';
import { displacementMetres } from '../../src/domain/geo';
import type { ApprovalSettings } from '../../src/domain/schemas/installation';
import type { Executor } from '../db/executor';
import { anchorApprovals, inventoryItems, nodeDiagnostics } from '../db/schema';
import { unprocessable } from '../http/errors';

type InventoryRow = typeof inventoryItems.$inferSelect;

/** What the network last said of a node: where it computed it, its link quality, when. */
export interface LatestReport {
  computed: LatLong | null;
  linkQuality: number | null;
  ts: Date;
}

export async function latestReportOf(db: Executor, inventoryItemId: number): Promise<LatestReport | null> {
  const [row] = await db
    .select({
      lat: nodeDiagnostics.lat,
      long: nodeDiagnostics.long,
      linkQuality: nodeDiagnostics.linkQuality,
      ts: nodeDiagnostics.ts,
    })
    .from(nodeDiagnostics)
    .where(eq(nodeDiagnostics.inventoryItemId, inventoryItemId))
    .orderBy(desc(nodeDiagnostics.ts))
    .limit(1);
  if (!row) return null;
  return {
    computed: row.lat === null || row.long === null ? null : { lat: row.lat, long: row.long },
    linkQuality: row.linkQuality,
    ts: row.ts,
  };
}

/** The reference an approval is judged against: a planning anchor, or the point it is placed at. */
export interface ApprovalReference {
  at: LatLong;
  /** The planning anchor's row id and name; null when the anchor is placed by hand. */
  planningAnchor: { id: number; anchorId: string } | null;
}

/** The audit row's evidence, once the checks passed or were overridden. */
export interface CheckedApproval {
  distanceM: number | null;
  linkQuality: number | null;
  overrideReason: string | null;
}

/**
 * Judges the anchor's evidence against the reference (src/domain/anchorApproval.ts): 422 naming
 * each failed check unless a reason overrides them. The reason is kept only when it was needed.
 */
export async function checkApproval(
  db: Executor,
  item: InventoryRow,
  reference: ApprovalReference,
  settings: ApprovalSettings,
  overrideReason: string | undefined,
  nowMs: number = Date.now(),
): Promise<CheckedApproval> {
  const report = await latestReportOf(db, item.id);
  const distanceM = report?.computed ? displacementMetres(reference.at, report.computed) : null;
  const linkQuality = liveLinkQuality(report?.linkQuality ?? null, report?.ts.getTime() ?? null, nowMs);
  const evidence: ApprovalEvidence = {
    installedName: item.wntInventoryId,
    planningName: reference.planningAnchor?.anchorId ?? null,
    distanceM,
    linkQuality,
  };
  const failed = failedApprovalChecks(evidence, settings);
  const refusal = approvalRefusal(failed, overrideReason);
  if (Object.keys(refusal).length > 0) throw unprocessable(refusal);
  return {
    distanceM,
    linkQuality,
    overrideReason: failed.length > 0 && hasOverrideReason(overrideReason) ? overrideReason.trim() : null,
  };
}

export interface ApprovalRecord {
  item: InventoryRow;
  action: 'approve' | 'unapprove';
  floorId: number | null;
  planningAnchorId: number | null;
  at: LatLong | null;
  checked: CheckedApproval | null;
  userId: number;
}

/** One row of anchor_approvals: who approved or unapproved the anchor, where, on what evidence. */
export async function recordApproval(tx: Executor, record: ApprovalRecord): Promise<void> {
  await tx.insert(anchorApprovals).values({
    inventoryItemId: record.item.id,
    action: record.action,
    floorId: record.floorId,
    planningAnchorId: record.planningAnchorId,
    lat: record.at?.lat ?? null,
    long: record.at?.long ?? null,
    distanceM: record.checked?.distanceM ?? null,
    linkQuality: record.checked?.linkQuality ?? null,
    overrideReason: record.checked?.overrideReason ?? null,
    userId: record.userId,
  });
}

/**
 * Whether a placement needs the evidence: it leaves the anchor approved and either approves it
 * now or moves an approved anchor (its place is confirmed again, so it is checked again).
 */
export function placementNeedsEvidence(item: InventoryRow, approvedAfter: boolean, at: LatLong): boolean {
  if (item.type !== 'anchor' || !approvedAfter) return false;
  if (!item.isApproved) return true;
  return item.lat !== at.lat || item.long !== at.long;
}

/** Anchors approved from a planning anchor and still approved on the floor: the planning anchors fulfilled. */
export async function fulfilledPlanningAnchors(db: Executor, floorId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectDistinctOn([anchorApprovals.inventoryItemId], {
      inventoryItemId: anchorApprovals.inventoryItemId,
      action: anchorApprovals.action,
      planningAnchorId: anchorApprovals.planningAnchorId,
    })
    .from(anchorApprovals)
    .innerJoin(inventoryItems, eq(inventoryItems.id, anchorApprovals.inventoryItemId))
    .where(and(eq(inventoryItems.floorId, floorId), eq(inventoryItems.isApproved, true)))
    .orderBy(anchorApprovals.inventoryItemId, desc(anchorApprovals.ts), desc(anchorApprovals.id));
  const fulfilled = new Map<number, number>();
  for (const row of rows)
    if (row.action === 'approve' && row.planningAnchorId !== null)
      fulfilled.set(row.planningAnchorId, row.inventoryItemId);
  return fulfilled;
}
