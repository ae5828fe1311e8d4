import { describe, expect, it } from 'vitest';
import { messageKeyOf } from '../../src/domain/messageCatalog';
import {
  type CoverageInput,
  coverageGridSize,
  predictLinkRssi,
  type SimAnchor,
  type SimWall,
  simulateCoverage,
  suggestPlacements,
  wallLossDb,
} from '../../src/domain/radio/coverage';
import { floorMetres } from '../../src/domain/radio/floorMetres';
import {
  DEFAULT_RADIO_MODEL,
  freeSpaceRangeM,
  parseRadioModel,
  pathLossDb,
  RADIO_MODEL_MESSAGES,
  type RadioModel,
  radioModelProblems,
} from '../../src/domain/radio/radioModel';

/** The test's own numbers, so a change of the defaults does not move the known answers. */
const model: RadioModel = {
  frequencyMHz: 2440,
  distancePowerLossCoefficient: 30,
  txPowerDbm: 0,
  rxSensitivityDbm: -90,
  maxDop: 5,
  wallAttenuationDb: { drywall: 3, brick: 8, concrete: 12, glass: 3, metal: 26 },
};

const plan = (overrides: Partial<CoverageInput>): CoverageInput => ({
  widthM: 20,
  heightM: 1,
  cellSizeM: 1,
  anchors: [],
  walls: [],
  model,
  ...overrides,
});

const anchor = (key: string, x: number, y: number): SimAnchor => ({ key, x, y });
const concreteWallAtX = (x: number): SimWall => ({
  material: 'concrete',
  points: [
    { x, y: -1 },
    { x, y: 2 },
  ],
});

describe('the radio model', () => {
  it('is ITU-R P.1238 on one floor: 20 log10 2440 + 30 log10 10 − 28 = 69.748 dB at 10 m', () => {
    // 20 × 3.387390 = 67.748; + 30 × 1 − 28 = 69.748.
    expect(pathLossDb(model, 10)).toBeCloseTo(69.748, 3);
    // Closer than 1 m counts as 1 m: 67.748 − 28.
    expect(pathLossDb(model, 0.2)).toBeCloseTo(39.748, 3);
    // 0 dBm − −90 dBm = 90 dB of budget; 90 − 39.748 = 50.252 dB over 30 dB a decade: 10^1.675 = 47.32 m.
    expect(freeSpaceRangeM(model)).toBeCloseTo(47.323, 3);
  });

  it('accepts the defaults and names each field out of range', () => {
    expect(radioModelProblems(DEFAULT_RADIO_MODEL)).toEqual({});
    expect(radioModelProblems(model)).toEqual({});
    expect(radioModelProblems('loud')).toEqual({ settings: 'The radio settings must be an object' });
    expect(
      radioModelProblems({
        ...model,
        frequencyMHz: 20,
        distancePowerLossCoefficient: Number.NaN,
        maxDop: '5',
        wallAttenuationDb: { ...model.wallAttenuationDb, concrete: -3, metal: undefined },
      }),
    ).toEqual({
      frequencyMHz: 'Frequency must be a number from 300 to 100000 MHz',
      distancePowerLossCoefficient: 'Distance power loss coefficient must be a number from 10 to 60',
      maxDop: 'Maximum DOP must be a number from 1 to 50',
      'wallAttenuationDb.concrete': 'Concrete attenuation must be a number from 0 to 100 dB',
      'wallAttenuationDb.metal': 'Metal attenuation must be a number from 0 to 100 dB',
    });
    expect(radioModelProblems({ ...model, txPowerDbm: -35, rxSensitivityDbm: -30 })).toEqual({
      rxSensitivityDbm: 'Receiver sensitivity must be below the transmit power',
    });
    expect(radioModelProblems({ ...model, wallAttenuationDb: null })).toEqual({
      wallAttenuationDb: 'Wall attenuation must give a number of dB for each material',
    });
  });

  it('answers with texts the console translates (server.radio.*)', () => {
    for (const [name, text] of Object.entries(RADIO_MODEL_MESSAGES))
      expect(messageKeyOf(text)).toEqual({ key: `server.radio.${name}` });
  });

  it('parses a valid model to a clean copy and refuses an invalid one', () => {
    expect(parseRadioModel({ ...model, colour: 'red' })).toEqual(model);
    expect(parseRadioModel({ ...model, txPowerDbm: 99 })).toBeNull();
  });
});

describe('simulateCoverage on synthetic floors with known answers', () => {
  it('gives tx − path loss in free space: −69.748 dBm 10 m away, −39.748 dBm at the anchor', () => {
    const grid = simulateCoverage(plan({ anchors: [anchor('A', 0.5, 0.5)] }));
    expect(grid.columns).toBe(20);
    expect(grid.rows).toBe(1);
    expect(grid.bestRssiDbm[10]).toBeCloseTo(-69.748, 3);
    expect(grid.bestRssiDbm[0]).toBeCloseTo(-39.748, 3);
    // 3 m: 67.748 + 30 × 0.477121 − 28 = 54.061.
    expect(grid.bestRssiDbm[3]).toBeCloseTo(-54.061, 3);
    expect(Array.from(grid.heard)).toEqual(new Array(20).fill(1));
  });

  it('takes exactly the concrete loss off a cell behind one wall and leaves the anchor side alone', () => {
    const anchors = [anchor('A', 0.5, 0.5)];
    // A sensitive receiver, so every cell behind the wall is still heard.
    const sensitive = { ...model, rxSensitivityDbm: -120 };
    const free = simulateCoverage(plan({ anchors, model: sensitive }));
    const walled = simulateCoverage(plan({ anchors, model: sensitive, walls: [concreteWallAtX(5)] }));
    expect(walled.bestRssiDbm[10]).toBeCloseTo(-69.748 - 12, 3);
    expect(walled.bestRssiDbm[3]).toBe(free.bestRssiDbm[3]);
    for (let c = 0; c < 20; c++) {
      const expected = c < 5 ? free.bestRssiDbm[c] : free.bestRssiDbm[c] - 12;
      expect(walled.bestRssiDbm[c]).toBeCloseTo(expected, 4);
    }
    expect(predictLinkRssi({ x: 0.5, y: 0.5 }, { x: 10.5, y: 0.5 }, [concreteWallAtX(5)], model)).toBeCloseTo(
      -81.748,
      3,
    );
  });

  it('counts a polyline crossed at two segments twice, and a shared vertex on the line once', () => {
    const zigzag: SimWall = {
      material: 'brick',
      points: [
        { x: 3, y: -1 },
        { x: 4, y: 2 },
        { x: 5, y: -1 },
      ],
    };
    expect(wallLossDb({ x: 0.5, y: 0.5 }, { x: 10.5, y: 0.5 }, [zigzag], model)).toBe(16);
    // A polyline whose middle vertex lies exactly on the line: one crossing, not two or none.
    const bent: SimWall = {
      material: 'brick',
      points: [
        { x: 4, y: -1 },
        { x: 5, y: 0.5 },
        { x: 6, y: 2 },
      ],
    };
    expect(wallLossDb({ x: 0.5, y: 0.5 }, { x: 10.5, y: 0.5 }, [bent], model)).toBe(8);
    const sensitive = { ...model, rxSensitivityDbm: -120 };
    const grid = simulateCoverage(
      plan({ anchors: [anchor('A', 0.5, 0.5)], walls: [zigzag, bent], model: sensitive }),
    );
    const free = simulateCoverage(plan({ anchors: [anchor('A', 0.5, 0.5)], model: sensitive }));
    expect(grid.bestRssiDbm[10]).toBeCloseTo(free.bestRssiDbm[10] - 24, 4);
  });

  it('stops hearing an anchor where the walls take the signal below the sensitivity', () => {
    const anchors = [anchor('A', 0.5, 0.5)];
    // 10 m: −69.748 dBm; one metal wall (26 dB) takes it to −95.748, under −90.
    const grid = simulateCoverage(plan({ anchors, walls: [{ ...concreteWallAtX(5), material: 'metal' }] }));
    expect(grid.heard[4]).toBe(1);
    expect(grid.heard[10]).toBe(0);
    expect(grid.bestRssiDbm[10]).toBe(Number.NEGATIVE_INFINITY);
  });

  it('hears nothing past the free-space range (47.3 m)', () => {
    const grid = simulateCoverage(plan({ widthM: 60, anchors: [anchor('A', 0.5, 0.5)] }));
    expect(grid.heard[47]).toBe(1);
    expect(grid.heard[48]).toBe(0);
  });

  it('positions the centre of a square with four anchors at its corners, not with three', () => {
    const square = { widthM: 10, heightM: 10, cellSizeM: 10 };
    const corners = [anchor('A', 0, 0), anchor('B', 10, 0), anchor('C', 0, 10), anchor('D', 10, 10)];
    const four = simulateCoverage(plan({ ...square, anchors: corners }));
    expect(four.heard[0]).toBe(4);
    // Unit vectors at 45°, 135°, 225°, 315°: HᵀH = 2I, trace of the inverse 1, DOP 1.
    expect(four.dop[0]).toBeCloseTo(1, 6);
    expect(four.positioned[0]).toBe(1);
    expect(four.coveredPercent).toBe(100);
    const three = simulateCoverage(plan({ ...square, anchors: corners.slice(0, 3) }));
    expect(three.heard[0]).toBe(3);
    // HᵀH = [[1.5, −0.5], [−0.5, 1.5]]: det 2, trace 3, DOP √1.5.
    expect(three.dop[0]).toBeCloseTo(Math.sqrt(1.5), 6);
    expect(three.positioned[0]).toBe(0);
    expect(three.coveredPercent).toBe(0);
    const two = simulateCoverage(plan({ ...square, anchors: corners.slice(0, 2) }));
    expect(two.dop[0]).toBe(Number.POSITIVE_INFINITY);
  });

  it('gives Infinity DOP on the line of collinear anchors, so four of them position nothing there', () => {
    const anchors = [anchor('A', 2, 0.5), anchor('B', 9, 0.5), anchor('C', 13, 0.5), anchor('D', 18, 0.5)];
    const grid = simulateCoverage(plan({ anchors }));
    expect(Math.min(...grid.heard)).toBe(4);
    expect(Array.from(grid.dop).every((dop) => dop === Number.POSITIVE_INFINITY)).toBe(true);
    expect(grid.coveredPercent).toBe(0);
  });

  it('refuses a DOP over the model maximum even with four anchors heard', () => {
    // Four anchors bunched far to one side of the cell: all seen within a few degrees.
    const anchors = [anchor('A', 30, 4), anchor('B', 30, 6), anchor('C', 31, 4), anchor('D', 31, 6)];
    const grid = simulateCoverage(plan({ widthM: 1, heightM: 10, anchors }));
    const centre = 5;
    expect(grid.heard[centre]).toBe(4);
    expect(grid.dop[centre]).toBeGreaterThan(model.maxDop);
    expect(grid.positioned[centre]).toBe(0);
  });

  it('covers 0 % of a floor with no anchors', () => {
    const grid = simulateCoverage(
      plan({ widthM: 12, heightM: 8, cellSizeM: 0.5, walls: [concreteWallAtX(3)] }),
    );
    expect(grid.columns * grid.rows).toBe(384);
    expect(grid.coveredPercent).toBe(0);
    expect(Math.max(...grid.heard)).toBe(0);
    expect(Math.max(...grid.bestRssiDbm)).toBe(Number.NEGATIVE_INFINITY);
  });

  it('sizes the grid by whole cells and refuses sizes that are not positive', () => {
    expect(coverageGridSize(1.1, 0.35, 0.1)).toEqual({ columns: 11, rows: 4 });
    expect(coverageGridSize(100, 60, 0.5)).toEqual({ columns: 200, rows: 120 });
    expect(() => coverageGridSize(0, 10, 1)).toThrow(RangeError);
    expect(() => coverageGridSize(10, 10, -1)).toThrow(RangeError);
    expect(() => coverageGridSize(10_000, 10_000, 1)).toThrow(RangeError);
  });
});

describe('suggestPlacements', () => {
  const empty = plan({ widthM: 20, heightM: 20, cellSizeM: 0.5 });

  it('proposes anchors on an empty 20 × 20 m floor that raise the coverage monotonically to all of it', () => {
    const suggestions = suggestPlacements({ ...empty, count: 6 });
    expect(suggestions).toHaveLength(6);
    const percents = suggestions.map((s) => s.coveredPercentAfter);
    for (let i = 1; i < percents.length; i++) expect(percents[i]).toBeGreaterThanOrEqual(percents[i - 1]);
    // Four anchors are the fewest that can position anything; spread well, they cover most of the floor.
    expect(percents[3]).toBeGreaterThan(90);
    expect(percents[5]).toBe(100);
    // Each figure is what simulating the accepted suggestions gives.
    suggestions.forEach((_, i) => {
      const accepted = suggestions.slice(0, i + 1).map((s, k) => anchor(`S${k}`, s.x, s.y));
      expect(simulateCoverage({ ...empty, anchors: accepted }).coveredPercent).toBeCloseTo(
        suggestions[i].coveredPercentAfter,
        9,
      );
    });
    for (const s of suggestions) {
      expect(s.x).toBeGreaterThanOrEqual(0);
      expect(s.x).toBeLessThanOrEqual(20);
      expect(s.y).toBeGreaterThanOrEqual(0);
      expect(s.y).toBeLessThanOrEqual(20);
    }
  });

  it('builds on the anchors already placed', () => {
    const placed = [anchor('A', 1, 1), anchor('B', 19, 1), anchor('C', 1, 19)];
    const before = simulateCoverage({ ...empty, anchors: placed }).coveredPercent;
    const [first] = suggestPlacements({ ...empty, anchors: placed, count: 1 });
    expect(first.coveredPercentAfter).toBeGreaterThan(before);
    // The fourth corner completes the square best.
    expect(first.x).toBeGreaterThan(15);
    expect(first.y).toBeGreaterThan(15);
  });

  it('judges a large floor on a coarser grid but reports coverage on the plan’s own', () => {
    // 60 × 40 m at 0.5 m: 9,600 cells, more than the 5,000 candidates are judged on.
    const large = plan({
      widthM: 60,
      heightM: 40,
      cellSizeM: 0.5,
      anchors: [anchor('A', 5, 5), anchor('B', 30, 5), anchor('C', 55, 5), anchor('D', 5, 35)],
      walls: [
        concreteWallAtX(20),
        {
          material: 'brick',
          points: [
            { x: 30, y: 20 },
            { x: 60, y: 20 },
          ],
        },
      ],
    });
    const suggestions = suggestPlacements({ ...large, count: 3 });
    let previous = simulateCoverage(large).coveredPercent;
    const accepted = [...large.anchors];
    for (const s of suggestions) {
      accepted.push(anchor(`S${accepted.length}`, s.x, s.y));
      expect(s.coveredPercentAfter).toBeCloseTo(
        simulateCoverage({ ...large, anchors: accepted }).coveredPercent,
        9,
      );
      expect(s.coveredPercentAfter).toBeGreaterThan(previous);
      previous = s.coveredPercentAfter;
    }
  });

  it('refuses a count out of range', () => {
    expect(() => suggestPlacements({ ...empty, count: -1 })).toThrow(RangeError);
    expect(() => suggestPlacements({ ...empty, count: 2.5 })).toThrow(RangeError);
    expect(suggestPlacements({ ...empty, count: 0 })).toEqual([]);
  });
});

describe('floorMetres', () => {
  // A 100 m × 60 m floor: b east of a, d north of a (1° of latitude is 111,195 m on spec §9's earth).
  const a = { lat: 25.2, long: 55.3 };
  const metresPerDegreeLat = (Math.PI / 180) * 6_371_000;
  const metresPerDegreeLong = metresPerDegreeLat * Math.cos((25.2 * Math.PI) / 180);
  const corners = {
    a,
    b: { lat: a.lat, long: a.long + 100 / metresPerDegreeLong },
    c: { lat: a.lat + 60 / metresPerDegreeLat, long: a.long + 100 / metresPerDegreeLong },
    d: { lat: a.lat + 60 / metresPerDegreeLat, long: a.long },
  };

  it('puts corner a at the origin, b at (width, 0) and d at (0, height), in metres', () => {
    const frame = floorMetres(corners);
    expect(frame.widthM).toBeCloseTo(100, 1);
    expect(frame.heightM).toBeCloseTo(60, 3);
    const b = frame.toMetres(corners.b);
    const d = frame.toMetres(corners.d);
    expect(b.x).toBeCloseTo(frame.widthM, 6);
    expect(b.y).toBeCloseTo(0, 6);
    expect(d.x).toBeCloseTo(0, 6);
    expect(d.y).toBeCloseTo(frame.heightM, 6);
    const middle = frame.toGeo({ x: 50, y: 30 });
    const back = frame.toMetres(middle);
    expect(back.x).toBeCloseTo(50, 6);
    expect(back.y).toBeCloseTo(30, 6);
  });
});
