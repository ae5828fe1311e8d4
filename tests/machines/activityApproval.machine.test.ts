import { describe, expect, it } from 'vitest';
import {
  activityApprovalStateOf,
  outcomeOf,
  selectCanConfirm,
  selectCanOpen,
  selectCanRetry,
  selectCanSelect,
} from '../../src/machines/activityApproval.machine';
import {
  answerFor,
  approvedResult,
  KERBS,
  OFFLINE,
  PAVING,
  refusedResult,
  STALE,
  startActivityApproval,
} from './helpers/activityApprovalHarness';

const state = (sut: ReturnType<typeof startActivityApproval>) => activityApprovalStateOf(sut.snapshot());

function confirmed(rows = [PAVING, KERBS]) {
  const sut = startActivityApproval();
  sut.send({ type: 'selection.set', rows });
  sut.send({ type: 'approve.open' });
  sut.send({ type: 'approve.confirm' });
  return sut;
}

describe('activity approval outcome', () => {
  it('names the refused rows with the server’s reason and keeps the approved ones apart', () => {
    const outcome = outcomeOf(
      [PAVING, KERBS],
      [approvedResult(PAVING), refusedResult(KERBS)],
      '1 of 2 activities approved',
    );
    expect(outcome).toEqual({
      approved: [PAVING],
      refused: [{ id: KERBS.id, label: KERBS.label, message: STALE }],
      message: '1 of 2 activities approved',
    });
  });

  it('counts a row the answer leaves out as refused, with the answer’s message', () => {
    const outcome = outcomeOf([PAVING, KERBS], [approvedResult(PAVING)], '1 of 2 activities approved');
    expect(outcome.refused).toEqual([
      { id: KERBS.id, label: KERBS.label, message: '1 of 2 activities approved' },
    ]);
  });
});

describe('activity approval machine', () => {
  it('cannot approve before rows are selected', () => {
    const sut = startActivityApproval();
    expect(state(sut)).toBe('idle');
    expect(selectCanOpen(sut.snapshot())).toBe(false);
    sut.send({ type: 'approve.open' });
    expect(state(sut)).toBe('idle');
  });

  it('asks for confirmation, then sends the rows with the versions the user saw', () => {
    const sut = startActivityApproval();
    sut.send({ type: 'selection.set', rows: [PAVING, KERBS] });
    expect(selectCanOpen(sut.snapshot())).toBe(true);
    sut.send({ type: 'approve.open' });
    expect(state(sut)).toBe('confirming');
    expect(selectCanConfirm(sut.snapshot())).toBe(true);
    expect(sut.calls).toEqual([]);
    sut.send({ type: 'approve.confirm' });
    expect(state(sut)).toBe('approving');
    expect(selectCanSelect(sut.snapshot())).toBe(false);
    expect(sut.calls).toEqual([
      {
        activities: [
          { id: 41, version: 3 },
          { id: 42, version: 7 },
        ],
      },
    ]);
  });

  it('lists the refused rows and their reasons after a partial failure, and stops the call', () => {
    const sut = confirmed();
    sut.send(answerFor([PAVING, KERBS], [KERBS]));
    expect(state(sut)).toBe('partialFailure');
    expect(sut.running()).toBe(0);
    expect(sut.snapshot().context.outcome?.refused).toEqual([
      { id: 42, label: 'KB-02 Kerbs north', message: STALE },
    ]);
    expect(sut.snapshot().context.outcome?.approved).toEqual([PAVING]);
    expect(sut.snapshot().context.selection).toEqual([]);
  });

  it('ends done when every row is approved', () => {
    const sut = confirmed();
    sut.send(answerFor([PAVING, KERBS]));
    expect(state(sut)).toBe('done');
    expect(sut.snapshot().context.outcome?.message).toBe('2 of 2 activities approved');
    sut.send({ type: 'dismiss' });
    expect(state(sut)).toBe('idle');
    expect(sut.snapshot().context.outcome).toBeNull();
  });

  it('retries the same rows after a network failure', () => {
    const sut = confirmed([PAVING]);
    sut.send({ type: 'approve.failed', message: OFFLINE });
    expect(state(sut)).toBe('failure');
    expect(sut.snapshot().context.error).toBe(OFFLINE);
    expect(selectCanRetry(sut.snapshot())).toBe(true);
    sut.send({ type: 'retry' });
    expect(state(sut)).toBe('approving');
    expect(sut.snapshot().context.error).toBeNull();
    expect(sut.calls).toEqual([
      { activities: [{ id: 41, version: 3 }] },
      { activities: [{ id: 41, version: 3 }] },
    ]);
  });

  it('ignores a new selection while approving, and a new selection afterwards clears the outcome', () => {
    const sut = confirmed([PAVING]);
    sut.send({ type: 'selection.set', rows: [KERBS] });
    expect(sut.snapshot().context.selection).toEqual([PAVING]);
    sut.send(answerFor([PAVING], [PAVING]));
    expect(state(sut)).toBe('partialFailure');
    sut.send({ type: 'selection.set', rows: [KERBS] });
    expect(state(sut)).toBe('selecting');
    expect(sut.snapshot().context.outcome).toBeNull();
    sut.send({ type: 'selection.set', rows: [] });
    expect(state(sut)).toBe('idle');
  });

  it('goes back to the selection when the confirmation is cancelled', () => {
    const sut = startActivityApproval();
    sut.send({ type: 'selection.set', rows: [PAVING] });
    sut.send({ type: 'approve.open' });
    sut.send({ type: 'approve.cancel' });
    expect(state(sut)).toBe('selecting');
    expect(sut.snapshot().context.selection).toEqual([PAVING]);
    expect(sut.calls).toEqual([]);
  });
});
