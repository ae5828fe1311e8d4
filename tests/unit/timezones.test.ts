import { describe, expect, it } from 'vitest';
import { canonicalTimezone, isValidTimezone, TIMEZONES } from '../../src/domain/timezones';

describe('timezones', () => {
  it('accepts IANA zones and UTC', () => {
    for (const zone of [
      'Asia/Dubai',
      'Europe/London',
      'America/Argentina/Buenos_Aires',
      'UTC',
      'Etc/GMT+4',
    ]) {
      expect(isValidTimezone(zone), zone).toBe(true);
      expect(canonicalTimezone(zone)).toBe(zone);
    }
  });

  it('accepts current IANA names that ICU lists only under an older id', () => {
    for (const zone of ['Asia/Kolkata', 'Europe/Kyiv', 'Asia/Ho_Chi_Minh', 'Etc/UTC']) {
      expect(canonicalTimezone(zone), zone).toBe(zone);
    }
  });

  it('returns the canonical spelling of a zone typed in another case or with spaces around', () => {
    expect(canonicalTimezone('asia/dubai')).toBe('Asia/Dubai');
    expect(canonicalTimezone(' EUROPE/PARIS ')).toBe('Europe/Paris');
    expect(canonicalTimezone('utc')).toBe('UTC');
  });

  it('refuses what is not a zone', () => {
    for (const value of [
      '',
      ' ',
      'Mars/Olympus_Mons',
      'Europe',
      'GMT+25',
      '+04:00',
      '-0300',
      'Asia/Dubai/',
      '../etc/passwd',
    ]) {
      expect(isValidTimezone(value), value).toBe(false);
      expect(canonicalTimezone(value)).toBeNull();
    }
    for (const value of [null, undefined, 4, {}]) expect(isValidTimezone(value)).toBe(false);
  });

  it('lists each zone once, sorted, and every listed zone works with Intl', () => {
    expect(new Set(TIMEZONES).size).toBe(TIMEZONES.length);
    expect([...TIMEZONES].sort()).toEqual(TIMEZONES);
    expect(TIMEZONES).toContain('UTC');
    for (const zone of TIMEZONES) {
      expect(() => new Intl.DateTimeFormat('en', { timeZone: zone }), zone).not.toThrow();
    }
  });
});
