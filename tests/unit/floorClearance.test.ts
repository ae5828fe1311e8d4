import { describe, expect, it } from 'vitest';
import type { EvacuationStatus } from '../../src/domain/evacuation';
import { floorClearances } from '../../src/domain/floorClearance';

const START = '2026-11-26T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(START) + seconds * 1000).toISOString();
const worker = (
  originFloorId: number,
  status: EvacuationStatus,
  statusChangedAt: string,
  leftFloorAt: string | null = null,
) => ({ originFloorId, status, statusChangedAt, leftFloorAt });

describe('floors cleared', () => {
  it('clears a floor when its last worker left it or was accounted for, and lists floors in order of clearing', () => {
    const clearances = floorClearances(
      [1, 2, 3],
      [
        worker(1, 'autoAcknowledge', START, at(40)),
        worker(1, 'marked', at(90)),
        worker(2, 'safe', at(120), at(30)),
        worker(3, 'offline', START),
      ],
      START,
    );
    expect(clearances).toEqual([
      { floorId: 2, clearedAt: at(30), remaining: 0 },
      { floorId: 1, clearedAt: at(90), remaining: 0 },
      { floorId: 3, clearedAt: null, remaining: 1 },
    ]);
  });

  it('keeps a floor open while someone re-entered it, and counts a floor nobody was on as clear at the start', () => {
    const clearances = floorClearances([1, 4], [worker(1, 'reEntered', at(200))], START);
    expect(clearances).toEqual([
      { floorId: 4, clearedAt: START, remaining: 0 },
      { floorId: 1, clearedAt: null, remaining: 1 },
    ]);
  });
});
