import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../server/auth/loginThrottle';

describe('LoginThrottle', () => {
  function throttleAt(start = 1_000_000) {
    const clock = { now: start };
    const throttle = new LoginThrottle({ maxFailures: 2, windowSeconds: 60, now: () => clock.now });
    return { throttle, clock };
  }

  it('refuses the pair once it reached the limit, until its oldest failure leaves the window', () => {
    const { throttle, clock } = throttleAt();
    expect(throttle.begin('a@x.io', 'ip1')).toBe(true);
    clock.now += 10_000;
    expect(throttle.begin('a@x.io', 'ip1')).toBe(true);
    expect(throttle.begin('a@x.io', 'ip1')).toBe(false);
    expect(throttle.isBlocked('A@X.IO ', 'ip1')).toBe(true);
    expect(throttle.isBlocked('a@x.io', 'ip2')).toBe(false);
    clock.now += 49_999;
    expect(throttle.isBlocked('a@x.io', 'ip1')).toBe(true);
    clock.now += 1;
    expect(throttle.isBlocked('a@x.io', 'ip1')).toBe(false);
    // One failure is still in the window, so a single further failure blocks again.
    expect(throttle.begin('a@x.io', 'ip1')).toBe(true);
    expect(throttle.begin('a@x.io', 'ip1')).toBe(false);
  });

  it('does not count an attempt that succeeded', () => {
    const { throttle } = throttleAt();
    for (let i = 0; i < 50; i++) {
      expect(throttle.begin(`user${i}@x.io`, 'ip1')).toBe(true);
      throttle.succeeded(`user${i}@x.io`, 'ip1');
    }
    expect(throttle.isBlocked('someone@x.io', 'ip1')).toBe(false);
  });

  it('blocks an ip after ten times the pair limit across addresses', () => {
    const { throttle, clock } = throttleAt();
    for (let i = 0; i < 20; i++) expect(throttle.begin(`user${i}@x.io`, 'ip1')).toBe(true);
    expect(throttle.begin('fresh@x.io', 'ip1')).toBe(false);
    expect(throttle.begin('fresh@x.io', 'ip2')).toBe(true);
    clock.now += 60_000;
    expect(throttle.begin('fresh@x.io', 'ip1')).toBe(true);
  });

  it('is off with a limit of 0 and keeps at most maxKeys keys', () => {
    const off = new LoginThrottle({ maxFailures: 0, windowSeconds: 60 });
    for (let i = 0; i < 10; i++) expect(off.begin('a@x.io', 'ip1')).toBe(true);
    const clock = { now: 0 };
    const small = new LoginThrottle({ maxFailures: 1, windowSeconds: 60, now: () => clock.now, maxKeys: 4 });
    small.begin('first@x.io', 'ip1');
    for (let i = 0; i < 10; i++) small.begin(`flood${i}@x.io`, `ip-${i + 2}`);
    // The oldest keys were forgotten to bound memory.
    expect(small.isBlocked('first@x.io', 'ip1')).toBe(false);
    expect(small.isBlocked('flood9@x.io', 'ip-11')).toBe(true);
  });
});
