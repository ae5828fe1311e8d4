import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_UNDO,
  lastChange,
  nextPlanningName,
  type PlannedAnchor,
  type PlanningChange,
  planningUndo,
  UNDO_LIMIT,
  undoRequestOf,
} from '../../src/domain/planningUndo';

const anchor = (id: number, name: string, lat = 25.2, long = 55.3): PlannedAnchor => ({
  id,
  anchor_id: name,
  metadata: { lat, long },
});

const record = (...changes: PlanningChange[]) =>
  changes.reduce((state, change) => planningUndo(state, { type: 'changed', change }), EMPTY_UNDO);

describe('the planning anchors undo', () => {
  it('takes back the last change first: an add is undone by deleting the anchor', () => {
    const state = record(
      { kind: 'add', anchor: anchor(1, 'P-01') },
      { kind: 'add', anchor: anchor(2, 'P-02') },
    );
    expect(undoRequestOf(lastChange(state)!)).toEqual({ kind: 'delete', id: 2 });
    const after = planningUndo(state, { type: 'undone' });
    expect(undoRequestOf(lastChange(after)!)).toEqual({ kind: 'delete', id: 1 });
    expect(lastChange(planningUndo(after, { type: 'undone' }))).toBeNull();
  });

  it('puts a moved anchor back where it was and a renamed one back under its old name', () => {
    const from = { lat: 25.1, long: 55.1 };
    const to = { lat: 25.2, long: 55.2 };
    expect(undoRequestOf({ kind: 'move', id: 7, from, to })).toEqual({ kind: 'edit', id: 7, metadata: from });
    expect(undoRequestOf({ kind: 'rename', id: 7, from: 'P-01', to: 'North door' })).toEqual({
      kind: 'edit',
      id: 7,
      anchor_id: 'P-01',
    });
  });

  it('adds a deleted anchor again, and its earlier moves follow the new id', () => {
    const state = record(
      { kind: 'add', anchor: anchor(3, 'P-03') },
      { kind: 'move', id: 3, from: { lat: 1, long: 1 }, to: { lat: 2, long: 2 } },
      { kind: 'delete', anchor: anchor(3, 'P-03', 2, 2) },
    );
    expect(undoRequestOf(lastChange(state)!)).toEqual({
      kind: 'add',
      anchor_id: 'P-03',
      metadata: { lat: 2, long: 2 },
    });
    const after = planningUndo(state, { type: 'undone', recreatedId: 11 });
    expect(undoRequestOf(lastChange(after)!)).toEqual({
      kind: 'edit',
      id: 11,
      metadata: { lat: 1, long: 1 },
    });
    const first = planningUndo(after, { type: 'undone' });
    expect(undoRequestOf(lastChange(first)!)).toEqual({ kind: 'delete', id: 11 });
  });

  it('leaves other anchors alone when a delete is undone', () => {
    const state = record(
      { kind: 'move', id: 4, from: { lat: 1, long: 1 }, to: { lat: 2, long: 2 } },
      { kind: 'delete', anchor: anchor(5, 'P-05') },
    );
    const after = planningUndo(state, { type: 'undone', recreatedId: 12 });
    expect(undoRequestOf(lastChange(after)!)).toEqual({ kind: 'edit', id: 4, metadata: { lat: 1, long: 1 } });
  });

  it('forgets everything when cleared (another floor, or the view reset), and nothing to undo is no change', () => {
    const state = record({ kind: 'add', anchor: anchor(1, 'P-01') });
    expect(planningUndo(state, { type: 'cleared' })).toEqual(EMPTY_UNDO);
    expect(planningUndo(EMPTY_UNDO, { type: 'undone' })).toBe(EMPTY_UNDO);
  });

  it(`keeps the last ${UNDO_LIMIT} changes, newest last`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 * UNDO_LIMIT }), (count) => {
        const changes = Array.from(
          { length: count },
          (_, i): PlanningChange => ({ kind: 'add', anchor: anchor(i, `P-${i}`) }),
        );
        const state = record(...changes);
        expect(state.past.length).toBe(Math.min(count, UNDO_LIMIT));
        if (count > 0) expect(lastChange(state)).toEqual(changes[count - 1]);
      }),
    );
  });
});

describe('the proposed name of a new planning anchor', () => {
  it('is one past the highest P-number of the floor, two digits at least', () => {
    expect(nextPlanningName([])).toBe('P-01');
    expect(nextPlanningName(['P-01', 'P-05', 'Door'])).toBe('P-06');
    expect(nextPlanningName(['p-9'])).toBe('P-10');
    expect(nextPlanningName(['P-120'])).toBe('P-121');
  });
});
