/**
 * The installation plan's undo: the last changes made to a floor's planning anchors, newest last,
 * and for each the request that takes it back. Pure: the screen records what the server accepted
 * and, on Undo, sends `undoRequestOf(last)` and reports the result with `undone`.
 */

/** Where a planning anchor is (spec §3: its metadata is two numbers, its coordinates). */
export interface PlannedPosition {
  readonly lat: number;
  readonly long: number;
}

/** A planning anchor as far as undo needs it. */
export interface PlannedAnchor {
  readonly id: number;
  readonly anchor_id: string;
  readonly metadata: PlannedPosition;
}

export type PlanningChange =
  | { readonly kind: 'add'; readonly anchor: PlannedAnchor }
  | {
      readonly kind: 'move';
      readonly id: number;
      readonly from: PlannedPosition;
      readonly to: PlannedPosition;
    }
  | { readonly kind: 'delete'; readonly anchor: PlannedAnchor }
  | {
      readonly kind: 'rename';
      readonly id: number;
      readonly from: string;
      readonly to: string;
    };

/** What the server is asked to take a change back. */
export type UndoRequest =
  | { readonly kind: 'delete'; readonly id: number }
  | {
      readonly kind: 'edit';
      readonly id: number;
      readonly anchor_id?: string;
      readonly metadata?: PlannedPosition;
    }
  | { readonly kind: 'add'; readonly anchor_id: string; readonly metadata: PlannedPosition };

export interface PlanningUndoState {
  /** Oldest first; the last is what Undo takes back. */
  readonly past: readonly PlanningChange[];
}

export type PlanningUndoAction =
  | { readonly type: 'changed'; readonly change: PlanningChange }
  /**
   * The last change was taken back. Undoing a delete adds the anchor again under a new id:
   * `recreatedId` is that id, and older changes of the deleted anchor follow it.
   */
  | { readonly type: 'undone'; readonly recreatedId?: number }
  /** Another floor, or the view reset: nothing of the old plan can be undone here. */
  | { readonly type: 'cleared' };

/** How many changes are kept: enough for a session's slips, not a history. */
export const UNDO_LIMIT = 50;

export const EMPTY_UNDO: PlanningUndoState = { past: [] };

export function planningUndo(state: PlanningUndoState, action: PlanningUndoAction): PlanningUndoState {
  switch (action.type) {
    case 'changed': {
      const past = [...state.past, action.change];
      return { past: past.length > UNDO_LIMIT ? past.slice(past.length - UNDO_LIMIT) : past };
    }
    case 'undone': {
      const last = state.past[state.past.length - 1];
      if (!last) return state;
      const rest = state.past.slice(0, -1);
      if (last.kind !== 'delete' || action.recreatedId === undefined) return { past: rest };
      const from = last.anchor.id;
      const to = action.recreatedId;
      return { past: rest.map((change) => withAnchorId(change, from, to)) };
    }
    case 'cleared':
      return state.past.length === 0 ? state : EMPTY_UNDO;
  }
}

/** The change Undo would take back, or null when there is none. */
export function lastChange(state: PlanningUndoState): PlanningChange | null {
  return state.past[state.past.length - 1] ?? null;
}

/** The request that takes `change` back. */
export function undoRequestOf(change: PlanningChange): UndoRequest {
  switch (change.kind) {
    case 'add':
      return { kind: 'delete', id: change.anchor.id };
    case 'move':
      return { kind: 'edit', id: change.id, metadata: change.from };
    case 'rename':
      return { kind: 'edit', id: change.id, anchor_id: change.from };
    case 'delete':
      return { kind: 'add', anchor_id: change.anchor.anchor_id, metadata: change.anchor.metadata };
  }
}

/** The id of the anchor a change is about. */
export function changedAnchorId(change: PlanningChange): number {
  return change.kind === 'add' || change.kind === 'delete' ? change.anchor.id : change.id;
}

function withAnchorId(change: PlanningChange, from: number, to: number): PlanningChange {
  if (changedAnchorId(change) !== from) return change;
  if (change.kind === 'add' || change.kind === 'delete')
    return { ...change, anchor: { ...change.anchor, id: to } };
  return { ...change, id: to };
}

/**
 * The next free "P-NN" name of a floor's plan: one past the highest P-number in use (so a deleted
 * P-02 is not reused while P-05 exists), two digits at least.
 */
export function nextPlanningName(existing: readonly string[]): string {
  let highest = 0;
  for (const name of existing) {
    const match = /^P-(\d+)$/i.exec(name.trim());
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return `P-${String(highest + 1).padStart(2, '0')}`;
}
