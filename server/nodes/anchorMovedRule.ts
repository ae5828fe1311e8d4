import { ANCHOR_MOVED_HOLD_MS } from '../../src/domain/nodeHealth';

/** What the ingest knows of one anchor between its reports (inventory_items and its incidents). */
export interface AnchorWatch {
  /** Since when its displacement has been over the threshold (epoch ms); null while within. */
  displacedSinceMs: number | null;
  /** Its anchorMoved incident not resolved yet, if any. */
  openIncidentId: number | null;
  /**
   * An anchorMoved incident was raised during the current displacement (resolved by hand or
   * not): the same displacement raises nothing twice.
   */
  raisedDuringDisplacement: boolean;
}

export type AnchorWatchStep = 'raise' | 'resolve' | null;

/**
 * One report of an anchor, taken in time order: over the threshold (strictly) starts or
 * continues a displacement, and once it has lasted ANCHOR_MOVED_HOLD_MS an incident is raised,
 * unless one is open or was raised during this displacement; within the threshold ends the
 * displacement and resolves the open incident. A report without a displacement (the anchor is
 * not placed) changes nothing. Pure: the caller applies the step and keeps the watch.
 */
export function advanceAnchorWatch(
  watch: AnchorWatch,
  report: { ms: number; displacementMetres: number | null },
  thresholdMetres: number,
): { watch: AnchorWatch; step: AnchorWatchStep } {
  const displacement = report.displacementMetres;
  if (displacement === null) return { watch, step: null };
  if (displacement > thresholdMetres) {
    const since = watch.displacedSinceMs ?? report.ms;
    const due =
      report.ms - since >= ANCHOR_MOVED_HOLD_MS &&
      watch.openIncidentId === null &&
      !watch.raisedDuringDisplacement;
    return {
      watch: {
        ...watch,
        displacedSinceMs: since,
        raisedDuringDisplacement: watch.raisedDuringDisplacement || due,
      },
      step: due ? 'raise' : null,
    };
  }
  if (watch.displacedSinceMs === null && watch.openIncidentId === null && !watch.raisedDuringDisplacement)
    return { watch, step: null };
  return {
    watch: { displacedSinceMs: null, openIncidentId: null, raisedDuringDisplacement: false },
    step: watch.openIncidentId === null ? null : 'resolve',
  };
}
