import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CoverageInput,
  type MetrePoint,
  predictLinkRssi,
  type SimWall,
  simulateCoverage,
  wallLossDb,
} from '../../src/domain/radio/coverage';
import { DEFAULT_RADIO_MODEL, type RadioModel, WALL_MATERIALS } from '../../src/domain/radio/radioModel';

/**
 * Coordinates are often whole multiples of a quarter metre, so anchors, wall ends and cell centres
 * coincide and lines pass exactly through wall vertices: the cases where an index and a scan could
 * disagree. The rest are arbitrary doubles.
 */
/** Hundreds of simulations a test: more than Vitest's 5 s default on a busy machine. */
const PROPERTY_TIMEOUT_MS = 60_000;

const coordinate = (max: number) =>
  fc.oneof(
    fc.integer({ min: -4, max: Math.round(max * 4) + 4 }).map((quarters) => quarters / 4),
    fc.double({ min: -1, max: max + 1, noNaN: true, noDefaultInfinity: true }),
  );

const floor = fc.record({
  widthM: fc.integer({ min: 2, max: 40 }),
  heightM: fc.integer({ min: 2, max: 30 }),
  cellSizeM: fc.constantFrom(0.5, 1, 1.5, 2),
});

type Floor = { widthM: number; heightM: number; cellSizeM: number };

const point = (f: Floor) => fc.record({ x: coordinate(f.widthM), y: coordinate(f.heightM) });
const wall = (f: Floor) =>
  fc.record({
    material: fc.constantFrom(...WALL_MATERIALS),
    points: fc.array(point(f), { minLength: 2, maxLength: 5 }),
  });
const anchors = (f: Floor, max: number) =>
  fc.array(point(f), { maxLength: max }).map((points) => points.map((p, i) => ({ key: `A${i}`, ...p })));

/** Losses that are not whole numbers, so an attenuation names which walls were crossed. */
const lossyModel: RadioModel = {
  ...DEFAULT_RADIO_MODEL,
  wallAttenuationDb: { drywall: 1.25, brick: 2.5, concrete: 5, glass: 10.5, metal: 21 },
};

const plan = fc.constantFrom(DEFAULT_RADIO_MODEL, lossyModel).chain((model) =>
  floor.chain((f) =>
    fc.record({
      widthM: fc.constant(f.widthM),
      heightM: fc.constant(f.heightM),
      cellSizeM: fc.constant(f.cellSizeM),
      walls: fc.array(wall(f), { maxLength: 8 }),
      anchors: anchors(f, 8),
      extra: point(f),
      model: fc.constant(model),
    }),
  ),
);

const cellCentre = (grid: { columns: number; cellSizeM: number }, index: number): MetrePoint => ({
  x: ((index % grid.columns) + 0.5) * grid.cellSizeM,
  y: (Math.floor(index / grid.columns) + 0.5) * grid.cellSizeM,
});

describe('coverage properties', () => {
  it(
    'never lowers any cell’s heard count, best signal or positioning when an anchor is added',
    () => {
      fc.assert(
        fc.property(plan, ({ extra, ...input }) => {
          const before = simulateCoverage(input);
          const after = simulateCoverage({
            ...input,
            anchors: [...input.anchors, { key: 'extra', ...extra }],
          });
          // One expect per run, not per cell: Vitest's expect costs more than the simulation.
          const lowered: number[] = [];
          for (let i = 0; i < before.heard.length; i++)
            if (
              after.heard[i] < before.heard[i] ||
              after.heard[i] > before.heard[i] + 1 ||
              after.bestRssiDbm[i] < before.bestRssiDbm[i] ||
              after.positioned[i] < before.positioned[i]
            )
              lowered.push(i);
          expect(lowered).toEqual([]);
          expect(after.coveredPercent).toBeGreaterThanOrEqual(before.coveredPercent);
        }),
        { numRuns: 150 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'finds through its wall index exactly the walls a scan of every segment finds',
    () => {
      // A receiver so sensitive that almost every cell hears the anchor through the walls: its RSSI
      // then shows the attenuation the index found for that cell.
      const deaf = (model: RadioModel): RadioModel => ({ ...model, txPowerDbm: 30, rxSensitivityDbm: -130 });
      fc.assert(
        fc.property(plan, ({ extra, anchors: _ignored, ...input }) => {
          const model = deaf(input.model);
          const grid = simulateCoverage({ ...input, model, anchors: [{ key: 'A', ...extra }] });
          const differing: { cell: number; simulated: number; scanned: number }[] = [];
          for (let i = 0; i < grid.heard.length; i++) {
            const scanned = predictLinkRssi(extra, cellCentre(grid, i), input.walls, model);
            const simulated = grid.heard[i] === 1 ? grid.bestRssiDbm[i] : Number.NEGATIVE_INFINITY;
            // Only walls enough to take even this receiver under its sensitivity hide a cell's loss.
            const agrees =
              scanned >= model.rxSensitivityDbm
                ? Math.abs(simulated - scanned) < 1e-3
                : simulated === Number.NEGATIVE_INFINITY;
            if (!agrees) differing.push({ cell: i, simulated, scanned });
          }
          expect(differing).toEqual([]);
        }),
        { numRuns: 200 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'hears an anchor exactly where the scan’s prediction reaches the sensitivity',
    () => {
      fc.assert(
        fc.property(plan, ({ extra, anchors: _ignored, ...input }: CoverageInput & { extra: MetrePoint }) => {
          const grid = simulateCoverage({ ...input, anchors: [{ key: 'A', ...extra }] });
          const differing: { cell: number; simulated: number; scanned: number }[] = [];
          for (let i = 0; i < grid.heard.length; i++) {
            const scanned = predictLinkRssi(extra, cellCentre(grid, i), input.walls, input.model);
            const heard = scanned >= input.model.rxSensitivityDbm;
            const simulated = grid.bestRssiDbm[i];
            const agrees = heard
              ? grid.heard[i] === 1 && Math.abs(simulated - scanned) < 1e-3
              : grid.heard[i] === 0 && simulated === Number.NEGATIVE_INFINITY;
            if (!agrees) differing.push({ cell: i, simulated, scanned });
          }
          expect(differing).toEqual([]);
        }),
        { numRuns: 150 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'counts the same wall loss whichever end of a link it starts from',
    () => {
      fc.assert(
        fc.property(
          floor.chain((f) => fc.tuple(point(f), point(f), fc.array(wall(f), { maxLength: 8 }))),
          ([from, to, walls]: [MetrePoint, MetrePoint, SimWall[]]) => {
            expect(wallLossDb(from, to, walls, lossyModel)).toBeCloseTo(
              wallLossDb(to, from, walls, lossyModel),
              9,
            );
          },
        ),
        { numRuns: 300 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
