import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AnchorWatch, advanceAnchorWatch } from '../../server/nodes/anchorMovedRule';
import { ANCHOR_MOVED_HOLD_MS } from '../../src/domain/nodeHealth';

const THRESHOLD = 0.3;
const calm: AnchorWatch = { displacedSinceMs: null, openIncidentId: null, raisedDuringDisplacement: false };

/** Runs reports through the rule as the ingest does, numbering raised incidents 1, 2, … */
function run(reports: [ms: number, metres: number | null][], start: AnchorWatch = calm) {
  let watch = start;
  const steps: string[] = [];
  let next = 1;
  for (const [ms, metres] of reports) {
    const advanced = advanceAnchorWatch(watch, { ms, displacementMetres: metres }, THRESHOLD);
    if (advanced.step === 'raise') advanced.watch.openIncidentId = next++;
    if (advanced.step) steps.push(`${advanced.step}@${ms}`);
    watch = advanced.watch;
  }
  return { watch, steps };
}

describe('the anchor-moved rule', () => {
  it('raises once the displacement has lasted the hold, not a millisecond before', () => {
    expect(
      run([
        [0, 0.5],
        [ANCHOR_MOVED_HOLD_MS - 1, 0.5],
      ]).steps,
    ).toEqual([]);
    expect(
      run([
        [0, 0.5],
        [ANCHOR_MOVED_HOLD_MS, 0.5],
      ]).steps,
    ).toEqual([`raise@${ANCHOR_MOVED_HOLD_MS}`]);
  });

  it('reads the threshold strictly: exactly on it is within', () => {
    expect(
      run([
        [0, THRESHOLD],
        [ANCHOR_MOVED_HOLD_MS * 2, THRESHOLD],
      ]),
    ).toEqual({ watch: calm, steps: [] });
  });

  it('starts the hold again after a report within the threshold', () => {
    const { steps } = run([
      [0, 0.5],
      [50_000, 0.1],
      [70_000, 0.5],
      [129_999, 0.5],
      [130_000, 0.5],
    ]);
    expect(steps).toEqual(['raise@130000']);
  });

  it('resolves the open incident once when the anchor comes back, and raises again for a new displacement', () => {
    const { steps, watch } = run([
      [0, 0.5],
      [60_000, 0.5],
      [90_000, 2],
      [120_000, 0.2],
      [130_000, 0.1],
      [200_000, 0.4],
      [260_000, 0.4],
    ]);
    expect(steps).toEqual(['raise@60000', 'resolve@120000', 'raise@260000']);
    expect(watch).toEqual({ displacedSinceMs: 200_000, openIncidentId: 2, raisedDuringDisplacement: true });
  });

  it('raises nothing again for a displacement whose incident was resolved by hand', () => {
    const resolvedByHand: AnchorWatch = {
      displacedSinceMs: 0,
      openIncidentId: null,
      raisedDuringDisplacement: true,
    };
    expect(run([[600_000, 0.9]], resolvedByHand).steps).toEqual([]);
    // Back in place, then moved again: a new displacement, a new incident.
    expect(
      run(
        [
          [600_000, 0.1],
          [610_000, 0.9],
          [670_000, 0.9],
        ],
        resolvedByHand,
      ).steps,
    ).toEqual(['raise@670000']);
  });

  it('ignores reports of an anchor that is not placed', () => {
    const displaced: AnchorWatch = { displacedSinceMs: 0, openIncidentId: 4, raisedDuringDisplacement: true };
    expect(run([[120_000, null]], displaced)).toEqual({ watch: displaced, steps: [] });
  });

  it('never has two incidents open, and resolves only what it raised, whatever the reports', () => {
    const report = fc.tuple(
      fc.integer({ min: 1_000, max: 90_000 }),
      fc.option(fc.double({ min: 0, max: 3, noNaN: true })),
    );
    fc.assert(
      fc.property(fc.array(report, { maxLength: 60 }), (gaps) => {
        const reports: [number, number | null][] = [];
        let ms = 0;
        for (const [gap, metres] of gaps) {
          ms += gap;
          reports.push([ms, metres]);
        }
        const { steps } = run(reports);
        let open = 0;
        for (const step of steps) {
          open += step.startsWith('raise') ? 1 : -1;
          expect(open === 0 || open === 1).toBe(true);
        }
      }),
    );
  });
});
