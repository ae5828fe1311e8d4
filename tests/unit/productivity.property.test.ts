import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatHoursOrNA } from '../../src/domain/numberFormat';
import {
  earnedHours,
  hasAtMostTwoDecimals,
  hoursOfMinutes,
  isHoursFigure,
  productivityOf,
  sumHours,
} from '../../src/domain/productivity';

/** A two-decimal figure, as the columns store it. */
const hundredths = (max: number) => fc.integer({ min: 0, max: max * 100 }).map((n) => n / 100);
const rate = fc.integer({ min: 1, max: 100_000 }).map((n) => n / 100);

describe('eTQR arithmetic', () => {
  it('earned hours are the installed quantity over the target rate, two decimals', () => {
    fc.assert(
      fc.property(hundredths(1_000_000), rate, (installed, targetRate) => {
        const earned = earnedHours(installed, targetRate);
        expect(earned).not.toBeNull();
        expect(hasAtMostTwoDecimals(earned as number)).toBe(true);
        expect(Math.abs((earned as number) - installed / targetRate)).toBeLessThanOrEqual(0.005 + 1e-9);
      }),
    );
  });

  it('gain and loss are never negative, at most one is above 0, and earned − actual = gain − loss exactly', () => {
    fc.assert(
      fc.property(hundredths(100_000), rate, hundredths(10_000), (installed, targetRate, actual) => {
        const { earned, gain, loss } = productivityOf(installed, targetRate, actual);
        expect(gain).not.toBeNull();
        expect(loss).not.toBeNull();
        const g = gain as number;
        const l = loss as number;
        expect(g).toBeGreaterThanOrEqual(0);
        expect(l).toBeGreaterThanOrEqual(0);
        expect(g === 0 || l === 0).toBe(true);
        expect(Math.round(((earned as number) - actual) * 100)).toBe(Math.round((g - l) * 100));
        expect(hasAtMostTwoDecimals(g) && hasAtMostTwoDecimals(l)).toBe(true);
      }),
    );
  });

  it('gain when earned beats actual, loss when it falls short', () => {
    // 30 m³ at 10 m³/h earn 3 h: 2 h actual gain 1, 4.5 h actual lose 1.5.
    expect(productivityOf(30, 10, 2)).toEqual({ earned: 3, gain: 1, loss: 0 });
    expect(productivityOf(30, 10, 4.5)).toEqual({ earned: 3, gain: 0, loss: 1.5 });
    expect(productivityOf(30, 10, 3)).toEqual({ earned: 3, gain: 0, loss: 0 });
  });

  it('is not computable (N/A) without an installed quantity, an actual figure or a target rate above 0', () => {
    fc.assert(
      fc.property(
        fc.option(hundredths(1000), { nil: null }),
        fc.oneof(fc.constant(0), fc.constant(null), rate),
        fc.option(hundredths(1000), { nil: null }),
        (installed, targetRate, actual) => {
          const result = productivityOf(installed, targetRate, actual);
          const computable = installed !== null && targetRate !== null && targetRate > 0 && actual !== null;
          expect(result.gain === null).toBe(!computable);
          expect(result.loss === null).toBe(!computable);
          if (targetRate === 0 || targetRate === null || installed === null) expect(result.earned).toBeNull();
          if (!computable) expect(formatHoursOrNA(result.gain)).toBe('N/A');
        },
      ),
    );
  });

  it('sums two-decimal figures without drift and counts presence minutes as hours', () => {
    fc.assert(
      fc.property(fc.array(fc.option(hundredths(1000), { nil: null }), { maxLength: 200 }), (values) => {
        const total = sumHours(values);
        expect(hasAtMostTwoDecimals(total)).toBe(true);
        const exact = values.reduce<number>((sum, value) => sum + Math.round((value ?? 0) * 100), 0);
        expect(Math.round(total * 100)).toBe(exact);
      }),
    );
    expect(sumHours([0.1, 0.2])).toBe(0.3);
    expect(hoursOfMinutes(90)).toBe(1.5);
    expect(hoursOfMinutes(0)).toBe(0);
    expect(formatHoursOrNA(1.5)).toBe('1.50');
  });

  it('accepts hours from 0 to 999,999.99 with at most two decimals', () => {
    expect(isHoursFigure(0)).toBe(true);
    expect(isHoursFigure(7.25)).toBe(true);
    expect(isHoursFigure(999_999.99)).toBe(true);
    expect(isHoursFigure(1_000_000)).toBe(false);
    expect(isHoursFigure(-0.01)).toBe(false);
    expect(isHoursFigure(1.234)).toBe(false);
    fc.assert(
      fc.property(hundredths(999_999), (value) => {
        expect(isHoursFigure(value)).toBe(true);
      }),
    );
  });
});
