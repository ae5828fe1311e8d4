import { describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { getShortestPaths, type StatePath } from 'xstate/graph';
import {
  type ActivityApprovalState,
  activityApprovalMachine,
  activityApprovalStateOf,
  approveBodyOf,
  outcomeOf,
  selectCanCancel,
  selectCanConfirm,
  selectCanDismiss,
  selectCanOpen,
  selectCanRetry,
  selectCanSelect,
} from '../../src/machines/activityApproval.machine';
import {
  type ActivityApprovalHarness,
  answerFor,
  KERBS,
  OFFLINE,
  PAVING,
  startActivityApproval,
} from './helpers/activityApprovalHarness';

type Snapshot = SnapshotFrom<typeof activityApprovalMachine>;
type Event = EventFrom<typeof activityApprovalMachine>;

const BOTH = [PAVING, KERBS];
const SELECTIONS = [[PAVING], BOTH, []];

/** The payloads the model tries: three selections, and for each non-empty one every answer the server may give. */
const sampleEvents: Event[] = [
  ...SELECTIONS.map((rows) => ({ type: 'selection.set' as const, rows })),
  { type: 'approve.open' },
  { type: 'approve.confirm' },
  { type: 'approve.cancel' },
  answerFor([PAVING]),
  answerFor([PAVING], [PAVING]),
  answerFor(BOTH),
  answerFor(BOTH, [KERBS]),
  answerFor(BOTH, BOTH),
  { type: 'approve.failed', message: OFFLINE },
  { type: 'retry' },
  { type: 'dismiss' },
];

const ids = (rows: readonly { id: number }[]) => rows.map((row) => row.id).join(',');

/** The server answers for the rows it was sent only; a selection is set only when it changes. */
function eventsIn(state: Snapshot): Event[] {
  return sampleEvents.filter((event) => {
    switch (event.type) {
      case 'selection.set':
        return ids(state.context.selection) !== ids(event.rows);
      case 'approve.answered':
        return ids(state.context.sent) === ids(event.results);
      default:
        return true;
    }
  });
}

const bySnapshot = (state: Snapshot) => JSON.stringify({ value: state.value, context: state.context });
const byTransition = (state: Snapshot, event: Event | undefined, previous: Snapshot | undefined) =>
  `${bySnapshot(state)}${event ? ` via ${JSON.stringify(event)} from ${JSON.stringify(previous?.value)}` : ''}`;

/** Which buttons the screen enables in each state. */
const BUTTONS: Record<
  ActivityApprovalState,
  [open: boolean, confirm: boolean, cancel: boolean, retry: boolean]
> = {
  idle: [false, false, false, false],
  selecting: [true, false, false, false],
  confirming: [false, true, true, false],
  approving: [false, false, false, false],
  done: [false, false, false, false],
  partialFailure: [false, false, false, false],
  failure: [false, false, true, true],
};

function stateChecks(sut: ActivityApprovalHarness) {
  const agrees = (state: Snapshot) => {
    const now = sut.snapshot();
    expect(now.value).toEqual(state.value);
    expect(now.context).toEqual(state.context);
    const value = activityApprovalStateOf(now);
    expect([selectCanOpen(now), selectCanConfirm(now), selectCanCancel(now), selectCanRetry(now)]).toEqual(
      BUTTONS[value],
    );
    expect(selectCanDismiss(now)).toBe(value === 'done' || value === 'partialFailure');
    expect(selectCanSelect(now)).toBe(value !== 'approving');
    // The call runs exactly while approving.
    expect(sut.running()).toBe(value === 'approving' ? 1 : 0);
  };
  return {
    idle: (state: Snapshot) => {
      agrees(state);
      expect(state.context.selection).toEqual([]);
      expect(state.context.outcome).toBeNull();
    },
    selecting: (state: Snapshot) => {
      agrees(state);
      expect(state.context.selection.length).toBeGreaterThan(0);
      expect(state.context.outcome).toBeNull();
    },
    confirming: (state: Snapshot) => {
      agrees(state);
      expect(state.context.selection.length).toBeGreaterThan(0);
    },
    approving: (state: Snapshot) => {
      agrees(state);
      // It asks for the rows selected, with the versions the user saw.
      expect(sut.calls.at(-1)).toEqual(approveBodyOf(state.context.selection));
      expect(state.context.sent).toEqual(state.context.selection);
      expect(state.context.error).toBeNull();
    },
    done: (state: Snapshot) => {
      agrees(state);
      expect(state.context.outcome?.refused).toEqual([]);
      expect(ids(state.context.outcome?.approved ?? [])).toBe(ids(state.context.sent));
    },
    partialFailure: (state: Snapshot) => {
      agrees(state);
      const outcome = state.context.outcome!;
      expect(outcome.refused.length).toBeGreaterThan(0);
      // Every row sent is either approved or named as refused with the server's reason.
      expect(ids([...outcome.approved, ...outcome.refused].sort((a, b) => a.id - b.id))).toBe(
        ids(state.context.sent),
      );
      for (const row of outcome.refused) expect(row.message).not.toBe('');
    },
    failure: (state: Snapshot) => {
      agrees(state);
      expect(state.context.error).toBe(OFFLINE);
      expect(state.context.selection).toEqual(state.context.sent);
    },
  };
}

/** Sends an event; a call starts exactly when the machine enters approving. */
function send(sut: ActivityApprovalHarness, event: Event) {
  const before = sut.calls.length;
  const from = activityApprovalStateOf(sut.snapshot());
  sut.send(event);
  const calling = activityApprovalStateOf(sut.snapshot()) === 'approving' && from !== 'approving';
  expect(sut.calls.length - before).toBe(calling ? 1 : 0);
}

/** Walks a path on a running machine, checking what the screen would show after every step. */
function walk(path: StatePath<Snapshot, Event>) {
  const sut = startActivityApproval();
  const checks = stateChecks(sut);
  for (const step of path.steps) {
    if ((step.event as { type: string }).type !== 'xstate.init') send(sut, step.event);
    checks[activityApprovalStateOf(step.state)](step.state);
  }
}

function pathName(path: { steps: { event: Event | { type: string } }[] }): string {
  return path.steps
    .map(({ event }) => {
      if (event.type === 'xstate.init') return 'start';
      const e = event as Event;
      if (e.type === 'selection.set') return `select [${ids(e.rows)}]`;
      if (e.type === 'approve.answered')
        return `answered ${e.results.map((r) => `${r.id}${r.ok ? '✓' : '✗'}`).join(' ')}`;
      return e.type;
    })
    .join(' → ');
}

describe('activity approval model', () => {
  // Shortest paths to every transition (not only every state), so each event is taken from each state.
  const shortest = getShortestPaths(activityApprovalMachine, {
    events: eventsIn,
    serializeState: byTransition,
  });

  it('reaches every state and takes every event type', () => {
    const reached = new Set(
      shortest.flatMap((path) => path.steps.map((s) => activityApprovalStateOf(s.state))),
    );
    expect([...reached].sort()).toEqual(
      ['approving', 'confirming', 'done', 'failure', 'idle', 'partialFailure', 'selecting'].sort(),
    );
    const events = new Set(
      shortest
        .flatMap((path) => path.steps.map((s): string => s.event.type))
        .filter((t) => t !== 'xstate.init'),
    );
    expect([...events].sort()).toEqual([...new Set(sampleEvents.map((e) => e.type))].sort());
    // A partial failure of the two rows names exactly the one the server refused.
    const partial = shortest
      .map((path) => path.state)
      .filter((state) => state.value === 'partialFailure' && state.context.sent.length === 2);
    expect(partial.some((state) => ids(state.context.outcome?.refused ?? []) === String(KERBS.id))).toBe(
      true,
    );
    for (const state of partial)
      expect(state.context.outcome).toEqual(
        outcomeOf(
          state.context.sent,
          sampleEvents
            .filter((e) => e.type === 'approve.answered')
            .find(
              (e) =>
                ids(e.results.filter((r) => !r.ok)) === ids(state.context.outcome?.refused ?? []) &&
                ids(e.results) === ids(state.context.sent),
            )!.results,
          state.context.outcome!.message,
        ),
      );
  });

  it.each(shortest.map((path) => [pathName(path), path] as const))('%s', (_name, path) => walk(path));
});
