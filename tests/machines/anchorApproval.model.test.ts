import { describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import {
  type AnchorApprovalState,
  anchorApprovalMachine,
  anchorApprovalStateOf,
  approvalBody,
  approvalProblems,
  selectCanConfirm,
  selectCanSubmit,
} from '../../src/machines/anchorApproval.machine';
import {
  type AnchorApprovalHarness,
  DRAGGED,
  FAR,
  FLOOR_ID,
  NEAR,
  NOW,
  planningPoint,
  SETTINGS,
  SILENT,
  startAnchorApproval,
} from './helpers/anchorApprovalHarness';

type Snapshot = SnapshotFrom<typeof anchorApprovalMachine>;
type Event = EventFrom<typeof anchorApprovalMachine>;

const REASON = 'Surveyed by hand';
const BLANK = '  ';
const TOO_LONG = 'x'.repeat(501);
const REFUSED = 'The given data was invalid.';
const SERVER_PROBLEMS = ["Link quality 40 is below the site's 50"];
const OFFLINE = 'Network error';
const ANCHORS = [NEAR, FAR, SILENT];

/** The payloads the model tries: three anchors (passes, fails both, reported nothing), two placements. */
const sampleEvents: Event[] = [
  ...ANCHORS.map((anchor) => ({ type: 'anchor.select' as const, anchor })),
  { type: 'placement.set', point: planningPoint(NEAR), source: 'planning' },
  { type: 'placement.set', point: planningPoint(FAR), source: 'planning' },
  { type: 'placement.set', point: DRAGGED, source: 'drag' },
  { type: 'confirm.open', at: NOW },
  { type: 'override.change', reason: REASON },
  { type: 'override.change', reason: BLANK },
  { type: 'override.change', reason: TOO_LONG },
  { type: 'confirm.submit' },
  { type: 'save.succeeded' },
  { type: 'save.failed', message: REFUSED, problems: SERVER_PROBLEMS },
  { type: 'save.failed', message: OFFLINE },
  { type: 'retry' },
  { type: 'back' },
  { type: 'cancel' },
];

const samePoint = (a: { lat: number; long: number } | undefined | null, b: { lat: number; long: number }) =>
  a?.lat === b.lat && a?.long === b.long;

/**
 * Keeps the graph small: an anchor's own planning point only (another's is still tried, and
 * refused or taken as a drag would be), a value set only when it differs, and one server refusal
 * per path. Every guard still sees both answers.
 */
const model = createTestModel(anchorApprovalMachine, {
  input: { settings: SETTINGS, floorId: FLOOR_ID },
  events: sampleEvents,
  filterEvents: (state, event) => {
    const { selected, placement, overrideReason, error } = state.context;
    switch (event.type) {
      case 'anchor.select':
        return selected?.inventory_id !== event.anchor.inventory_id;
      case 'placement.set':
        if (samePoint(placement, event.point) && placement?.source === event.source) return false;
        return (
          event.source === 'drag' ||
          selected === null ||
          selected === SILENT ||
          samePoint(planningPoint(selected), event.point)
        );
      case 'override.change':
        return overrideReason !== event.reason;
      case 'save.failed':
        return error === null;
      default:
        return true;
    }
  },
});

const bySnapshot = (state: Snapshot) => JSON.stringify({ value: state.value, context: state.context });
const byTransition = (state: Snapshot, event: Event | undefined, previous: Snapshot | undefined) =>
  `${bySnapshot(state)}${event ? ` via ${JSON.stringify(event)} from ${JSON.stringify(previous?.value)}` : ''}`;

function stateChecks(sut: AnchorApprovalHarness) {
  const agrees = (state: Snapshot) => {
    expect(sut.snapshot().value).toEqual(state.value);
    expect(sut.snapshot().context).toEqual(state.context);
    expect(sut.snapshot().hasTag('busy')).toBe(state.value === 'saving');
    expect(state.context.settings).toEqual(SETTINGS);
  };
  const reasonOk = (reason: string) => reason.trim() !== '' && reason.trim().length <= 500;
  return {
    idle: (state: Snapshot) => {
      agrees(state);
      expect(state.context).toMatchObject({
        selected: null,
        placement: null,
        problems: [],
        overrideReason: '',
      });
      expect(selectCanConfirm(sut.snapshot())).toBe(false);
    },
    selected: (state: Snapshot) => {
      agrees(state);
      expect(state.context.selected).not.toBeNull();
      expect(state.context.placement).toBeNull();
      expect(selectCanConfirm(sut.snapshot())).toBe(false);
    },
    placing: (state: Snapshot) => {
      agrees(state);
      expect(state.context.placement).not.toBeNull();
      expect(selectCanConfirm(sut.snapshot())).toBe(true);
      expect(selectCanSubmit(sut.snapshot())).toBe(false);
    },
    confirming: (state: Snapshot) => {
      agrees(state);
      const { selected, placement, problems, overrideReason } = state.context;
      // The problems are the evidence rule's on this anchor and placement.
      expect(problems).toEqual(approvalProblems(selected!, placement!, SETTINGS, NOW));
      expect(selectCanSubmit(sut.snapshot())).toBe(problems.length === 0 || reasonOk(overrideReason));
    },
    saving: (state: Snapshot) => {
      agrees(state);
      const last = sut.effects.at(-1);
      expect(last).toEqual({ type: 'requestSave', params: approvalBody(state.context) });
      // Every save carries the placement's coordinates.
      expect(last?.type === 'requestSave' && last.params).toMatchObject({
        lat: state.context.placement?.lat,
        long: state.context.placement?.long,
      });
      expect(state.context.problems.length === 0 || reasonOk(state.context.overrideReason)).toBe(true);
    },
    failure: (state: Snapshot) => {
      agrees(state);
      expect([REFUSED, OFFLINE]).toContain(state.context.error);
      expect(sut.snapshot().can({ type: 'retry' })).toBe(
        state.context.problems.length === 0 || reasonOk(state.context.overrideReason),
      );
    },
  };
}

function eventExecutors(sut: AnchorApprovalHarness) {
  const step =
    (check?: (effects: ReturnType<AnchorApprovalHarness['send']>, before: AnchorApprovalState) => void) =>
    (step: { event: { type: string } }) => {
      const before = anchorApprovalStateOf(sut.snapshot());
      const effects = sut.send(step.event as Event);
      if (check) check(effects, before);
      else expect(effects).toEqual([]);
    };
  const saves = (from: AnchorApprovalState) =>
    step((effects, before) => {
      const saved = before === from && anchorApprovalStateOf(sut.snapshot()) === 'saving';
      expect(effects.map((effect) => effect.type)).toEqual(saved ? ['requestSave'] : []);
    });
  return {
    'anchor.select': step(),
    'placement.set': step(),
    'confirm.open': step(),
    'override.change': step(),
    'confirm.submit': saves('confirming'),
    'save.succeeded': step((effects, before) => {
      expect(effects).toEqual([]);
      if (before === 'saving') {
        expect(anchorApprovalStateOf(sut.snapshot())).toBe('idle');
        expect(sut.snapshot().context.lastApproved).not.toBeNull();
      }
    }),
    'save.failed': step(),
    retry: saves('failure'),
    back: step(),
    cancel: step((effects, before) => {
      expect(effects).toEqual(before === 'saving' ? [{ type: 'abortSave' }] : []);
      expect(anchorApprovalStateOf(sut.snapshot())).toBe('idle');
      expect(sut.snapshot().context).toMatchObject({ selected: null, placement: null, lastApproved: null });
    }),
  };
}

function pathName(path: { steps: { event: Event | { type: string } }[] }): string {
  return path.steps
    .map(({ event }) => {
      const e = event as Event;
      if (e.type === 'anchor.select') return `select ${e.anchor.wnt_inventory_id}`;
      if (e.type === 'placement.set') return `place ${e.source}`;
      if (e.type === 'override.change')
        return `reason ${e.reason === REASON ? 'given' : e.reason === BLANK ? 'blank' : 'too long'}`;
      if (e.type === 'save.failed') return `save.failed${e.problems ? ' with problems' : ''}`;
      return e.type;
    })
    .join(' → ');
}

describe('anchor approval model', () => {
  const shortest = model.getShortestPaths({ serializeState: byTransition });

  it('reaches every state, takes every event type, and approves both ways', () => {
    const reached = new Set(
      shortest.flatMap((path) => path.steps.map((s) => anchorApprovalStateOf(s.state))),
    );
    expect([...reached].sort()).toEqual(['confirming', 'failure', 'idle', 'placing', 'saving', 'selected']);
    const events = new Set(
      shortest
        .flatMap((path) => path.steps.map((s): string => s.event.type))
        .filter((type) => type !== 'xstate.init'),
    );
    expect([...events].sort()).toEqual([...new Set(sampleEvents.map((e) => e.type))].sort());
    const approved = shortest
      .map((path) => path.state)
      .filter((state) => state.context.lastApproved !== null);
    expect(new Set(approved.map((state) => state.context.lastApproved))).toEqual(
      new Set(ANCHORS.map((anchor) => anchor.wnt_inventory_id)),
    );
    // FAR and SILENT fail a check: they reach saving only with a reason.
    const saving = shortest.map((path) => path.state).filter((state) => state.value === 'saving');
    expect(saving.some((state) => state.context.overrideReason === REASON)).toBe(true);
    expect(
      saving.every((state) => state.context.problems.length === 0 || state.context.overrideReason === REASON),
    ).toBe(true);
  });

  it.each(shortest.map((path) => [pathName(path), path] as const))('%s', async (_name, path) => {
    const sut = startAnchorApproval();
    await path.test({ states: stateChecks(sut), events: eventExecutors(sut) });
  });
});
