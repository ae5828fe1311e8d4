import { assign, type SnapshotFrom, setup } from 'xstate';
import { failedApprovalChecks, hasOverrideReason, liveLinkQuality } from '../domain/anchorApproval';
import type { LatLong } from '../domain/floor';
import { displacementMetres } from '../domain/geo';
import {
  type ApprovalSettings,
  type ApproveAnchorBody,
  INSTALLATION_LIMITS,
  type UnapprovedAnchor,
} from '../domain/schemas/installation';

/**
 * Approving an installed anchor (issue 19, spec §4). Pure: it never calls the server. Saving is
 * the named action `requestSave`, which the view provides and answers with save.succeeded or
 * save.failed; `abortSave` drops a save still in flight (a cancel during saving).
 *
 * idle ──anchor.select──▶ selected ──placement.set──▶ placing ──confirm.open──▶ confirming
 *                                     (drag on the canvas, or its planning anchor's point)
 * confirming ──confirm.submit (no failed check, or a reason)──▶ saving
 * saving ──save.succeeded──▶ done ──▶ idle (`lastApproved` names it) | save.failed ──▶ failure
 * failure ──retry──▶ saving; confirming | failure ──back──▶ placing; any ──cancel──▶ idle
 *
 * The failed checks (`problems`) are the evidence rule's (src/domain/anchorApproval.ts) on what
 * the anchor reported: its computed position against the placement (the planning anchor's point,
 * or where it was dragged) and its link quality. The server is the authority: its refusal's
 * problems replace ours. A save always carries the placement's coordinates; without a placement
 * there is no confirming and so no saving.
 */

export type PlacementSource = 'drag' | 'planning';

export interface AnchorPlacement {
  lat: number;
  long: number;
  source: PlacementSource;
}

export interface AnchorApprovalInput {
  settings: ApprovalSettings;
  /** The floor the screen shows: an anchor reported on no floor is approved onto it. */
  floorId?: number | null;
}

export interface AnchorApprovalContext {
  selected: UnapprovedAnchor | null;
  placement: AnchorPlacement | null;
  /** The failed evidence checks in words, from the rule or from the server's refusal. */
  problems: string[];
  overrideReason: string;
  /** The last failed save's message. */
  error: string | null;
  settings: ApprovalSettings;
  floorId: number | null;
  /** The name (wnt_inventory_id) of the anchor the last save approved, for the view's note. */
  lastApproved: string | null;
}

export type AnchorApprovalEvent =
  | { type: 'anchor.select'; anchor: UnapprovedAnchor }
  | { type: 'placement.set'; point: LatLong; source: PlacementSource }
  /** `at` (epoch ms) judges whether the reported link quality is still live; without it, it is taken as live. */
  | { type: 'confirm.open'; at?: number }
  | { type: 'override.change'; reason: string }
  | { type: 'confirm.submit' }
  | { type: 'save.succeeded' }
  | { type: 'save.failed'; message: string; problems?: string[] }
  | { type: 'retry' }
  | { type: 'back' }
  | { type: 'cancel' };

/**
 * The checks `anchor` fails when approved at `placement`: its computed position against the
 * placement (named after the planning anchor when it came from there), and its link quality
 * (live when reported within LIVE_LINK_QUALITY_WINDOW_S of `nowMs`, when given).
 */
export function approvalProblems(
  anchor: UnapprovedAnchor,
  placement: AnchorPlacement,
  settings: ApprovalSettings,
  nowMs?: number,
): string[] {
  const fromPlanning = placement.source === 'planning' && anchor.planning_anchor !== null;
  const reportedAt = anchor.last_seen === null ? null : Date.parse(anchor.last_seen);
  const linkQuality =
    nowMs === undefined
      ? anchor.link_quality
      : liveLinkQuality(anchor.link_quality, Number.isFinite(reportedAt) ? reportedAt : null, nowMs);
  return failedApprovalChecks(
    {
      installedName: anchor.wnt_inventory_id,
      planningName: fromPlanning ? (anchor.planning_anchor?.anchor_id ?? null) : null,
      distanceM: anchor.computed ? displacementMetres(placement, anchor.computed) : null,
      linkQuality,
    },
    settings,
  ).map((failed) => failed.message);
}

/** What the approval sends: the placement's coordinates always, the planning anchor when it came from one. */
export function approvalBody(context: AnchorApprovalContext): ApproveAnchorBody | null {
  const { selected, placement } = context;
  const floorId = context.floorId ?? selected?.floor_id ?? null;
  if (!selected || !placement || floorId === null) return null;
  const body: ApproveAnchorBody = {
    inventory_id: selected.inventory_id,
    floor_id: floorId,
    lat: placement.lat,
    long: placement.long,
  };
  if (placement.source === 'planning' && selected.planning_anchor) {
    body.planning_anchor_id = selected.planning_anchor.id;
  }
  if (context.problems.length > 0 && hasOverrideReason(context.overrideReason)) {
    body.override_reason = context.overrideReason.trim();
  }
  return body;
}

function submittable(context: AnchorApprovalContext): boolean {
  if (approvalBody(context) === null) return false;
  if (context.problems.length === 0) return true;
  return (
    hasOverrideReason(context.overrideReason) &&
    context.overrideReason.trim().length <= INSTALLATION_LIMITS.overrideReasonMax
  );
}

const CLEARED = {
  selected: null,
  placement: null,
  problems: [],
  overrideReason: '',
  error: null,
} satisfies Partial<AnchorApprovalContext>;

export const anchorApprovalMachine = setup({
  types: {
    context: {} as AnchorApprovalContext,
    events: {} as AnchorApprovalEvent,
    input: {} as AnchorApprovalInput,
  },
  actions: {
    clear: assign({ ...CLEARED, lastApproved: null }),
    select: assign(({ event }) =>
      event.type === 'anchor.select' ? { ...CLEARED, selected: event.anchor, lastApproved: null } : {},
    ),
    place: assign({
      placement: ({ context, event }) =>
        event.type === 'placement.set'
          ? { lat: event.point.lat, long: event.point.long, source: event.source }
          : context.placement,
      error: null,
    }),
    judge: assign({
      problems: ({ context, event }) =>
        context.selected && context.placement
          ? approvalProblems(
              context.selected,
              context.placement,
              context.settings,
              event.type === 'confirm.open' ? event.at : undefined,
            )
          : [],
      error: null,
    }),
    setReason: assign({
      overrideReason: ({ context, event }) =>
        event.type === 'override.change' ? event.reason : context.overrideReason,
    }),
    setFailure: assign(({ context, event }) =>
      event.type === 'save.failed'
        ? { error: event.message, problems: event.problems ?? context.problems }
        : {},
    ),
    clearError: assign({ error: null }),
    approved: assign(({ context }) => ({
      ...CLEARED,
      lastApproved: context.selected?.wnt_inventory_id ?? null,
    })),
    /** Provided by the view: POST /installation/anchor/approve, answered by save.succeeded / save.failed. */
    requestSave: (_, _params: ApproveAnchorBody) => {},
    /** Provided by the view: aborts the save in flight, whose answer then never comes. */
    abortSave: () => {},
  },
  guards: {
    isPlacement: ({ context, event }) =>
      event.type === 'placement.set' &&
      Number.isFinite(event.point.lat) &&
      Number.isFinite(event.point.long) &&
      Math.abs(event.point.lat) <= 90 &&
      Math.abs(event.point.long) <= 180 &&
      (event.source === 'drag' || context.selected?.planning_anchor != null),
    canSubmit: ({ context }) => submittable(context),
  },
}).createMachine({
  id: 'anchorApproval',
  context: ({ input }) => ({
    ...CLEARED,
    settings: input.settings,
    floorId: input.floorId ?? null,
    lastApproved: null,
  }),
  initial: 'idle',
  on: {
    cancel: { target: '.idle', actions: 'clear' },
  },
  states: {
    idle: {
      on: { 'anchor.select': { target: 'selected', actions: 'select' } },
    },
    selected: {
      on: {
        'anchor.select': { target: 'selected', actions: 'select' },
        'placement.set': { guard: 'isPlacement', target: 'placing', actions: 'place' },
      },
    },
    placing: {
      on: {
        'anchor.select': { target: 'selected', actions: 'select' },
        'placement.set': { guard: 'isPlacement', target: 'placing', actions: 'place' },
        'confirm.open': { target: 'confirming', actions: 'judge' },
      },
    },
    confirming: {
      on: {
        'override.change': { actions: 'setReason' },
        'confirm.submit': {
          guard: 'canSubmit',
          target: 'saving',
          actions: { type: 'requestSave', params: ({ context }) => approvalBody(context)! },
        },
        back: { target: 'placing', actions: 'clearError' },
      },
    },
    saving: {
      tags: ['busy'],
      on: {
        'save.succeeded': { target: 'done' },
        'save.failed': { target: 'failure', actions: 'setFailure' },
        cancel: { target: 'idle', actions: ['abortSave', 'clear'] },
      },
    },
    done: {
      always: { target: 'idle', actions: 'approved' },
    },
    failure: {
      on: {
        'anchor.select': { target: 'selected', actions: 'select' },
        'override.change': { actions: 'setReason' },
        retry: {
          guard: 'canSubmit',
          target: 'saving',
          actions: ['clearError', { type: 'requestSave', params: ({ context }) => approvalBody(context)! }],
        },
        back: { target: 'placing', actions: 'clearError' },
      },
    },
  },
});

export type AnchorApprovalSnapshot = SnapshotFrom<typeof anchorApprovalMachine>;
export type AnchorApprovalState =
  | 'idle'
  | 'selected'
  | 'placing'
  | 'confirming'
  | 'saving'
  | 'done'
  | 'failure';

export function anchorApprovalStateOf(snapshot: AnchorApprovalSnapshot): AnchorApprovalState {
  return snapshot.value as AnchorApprovalState;
}

// Selectors for useSelector: each button's enabled state comes from the machine (state.can).
export const selectApprovalState = anchorApprovalStateOf;
export const selectSelectedAnchor = (snapshot: AnchorApprovalSnapshot) => snapshot.context.selected;
export const selectPlacement = (snapshot: AnchorApprovalSnapshot) => snapshot.context.placement;
export const selectProblems = (snapshot: AnchorApprovalSnapshot) => snapshot.context.problems;
export const selectOverrideReason = (snapshot: AnchorApprovalSnapshot) => snapshot.context.overrideReason;
export const selectApprovalError = (snapshot: AnchorApprovalSnapshot) => snapshot.context.error;
export const selectLastApproved = (snapshot: AnchorApprovalSnapshot) => snapshot.context.lastApproved;
export const selectSaving = (snapshot: AnchorApprovalSnapshot) => snapshot.hasTag('busy');
/** The canvas takes a drag (or the "Use planning anchor" button) as the placement. */
export const selectCanPlace = (snapshot: AnchorApprovalSnapshot) =>
  snapshot.matches('selected') || snapshot.matches('placing');
export const selectCanUsePlanning = (snapshot: AnchorApprovalSnapshot) => {
  const planning = snapshot.context.selected?.planning_anchor;
  return (
    planning != null &&
    snapshot.can({
      type: 'placement.set',
      point: { lat: planning.lat, long: planning.long },
      source: 'planning',
    })
  );
};
export const selectCanConfirm = (snapshot: AnchorApprovalSnapshot) => snapshot.can({ type: 'confirm.open' });
export const selectCanSubmit = (snapshot: AnchorApprovalSnapshot) => snapshot.can({ type: 'confirm.submit' });
export const selectCanRetry = (snapshot: AnchorApprovalSnapshot) => snapshot.can({ type: 'retry' });
export const selectCanBack = (snapshot: AnchorApprovalSnapshot) => snapshot.can({ type: 'back' });
/** Whether the approval needs an override reason: a check failed. */
export const selectNeedsReason = (snapshot: AnchorApprovalSnapshot) => snapshot.context.problems.length > 0;
