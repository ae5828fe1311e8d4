export interface LoginThrottleOptions {
  /** Failed logins allowed per (address, ip) pair within the window; the ip alone gets ten times this. */
  maxFailures: number;
  windowSeconds: number;
  /** Milliseconds since the epoch; tests pass a fake clock. */
  now?: () => number;
  /** Most keys kept; beyond it the oldest are forgotten so a flood cannot exhaust memory. */
  maxKeys?: number;
}

/** How many failures one ip may make across all addresses, relative to the per-pair limit. */
export const IP_FACTOR = 10;

/**
 * Counts failed logins in memory per (lower-cased e-mail, ip) pair and per ip over a sliding
 * window. Once a key reaches its limit, logins from it are refused until its oldest counted
 * failure leaves the window. One instance per app: several server nodes each count their own.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly maxKeys: number;
  private lastSweep = 0;

  constructor(private readonly options: LoginThrottleOptions) {
    this.windowMs = options.windowSeconds * 1000;
    this.now = options.now ?? Date.now;
    this.maxKeys = options.maxKeys ?? 100_000;
  }

  /**
   * Starts a login attempt: false when it is refused (429), otherwise the attempt is counted as a
   * failure at once, so parallel guesses cannot all pass the check before any of them fails.
   */
  begin(email: string, ip: string): boolean {
    if (this.options.maxFailures <= 0) return true;
    if (this.isBlocked(email, ip)) return false;
    const now = this.now();
    this.sweep(now);
    this.push(pairKey(email, ip), now, this.options.maxFailures);
    this.push(ipKey(ip), now, this.options.maxFailures * IP_FACTOR);
    return true;
  }

  /** The attempt begun succeeded: its pair starts afresh and the ip stops counting that attempt. */
  succeeded(email: string, ip: string): void {
    this.failures.delete(pairKey(email, ip));
    const times = this.failures.get(ipKey(ip));
    times?.pop();
    if (times?.length === 0) this.failures.delete(ipKey(ip));
  }

  /** Whether a login for this address from this ip is refused now. A limit of 0 turns the throttle off. */
  isBlocked(email: string, ip: string): boolean {
    if (this.options.maxFailures <= 0) return false;
    const now = this.now();
    return (
      this.recent(pairKey(email, ip), now) >= this.options.maxFailures ||
      this.recent(ipKey(ip), now) >= this.options.maxFailures * IP_FACTOR
    );
  }

  private recent(key: string, now: number): number {
    const times = this.failures.get(key);
    if (!times) return 0;
    const from = now - this.windowMs;
    const kept = times.filter((t) => t > from);
    if (kept.length === 0) this.failures.delete(key);
    else if (kept.length !== times.length) this.failures.set(key, kept);
    return kept.length;
  }

  private push(key: string, now: number, limit: number): void {
    const from = now - this.windowMs;
    const times = (this.failures.get(key) ?? []).filter((t) => t > from);
    times.push(now);
    // Only the newest `limit` failures decide when the key unblocks.
    if (times.length > limit) times.splice(0, times.length - limit);
    // Re-inserting moves the key to the end of the map's order, which the size cap relies on.
    this.failures.delete(key);
    this.failures.set(key, times);
  }

  /** Drops keys whose failures have all left the window, at most once per window; caps the map. */
  private sweep(now: number): void {
    if (now - this.lastSweep >= this.windowMs) {
      this.lastSweep = now;
      const from = now - this.windowMs;
      for (const [key, times] of this.failures) {
        if (times[times.length - 1] <= from) this.failures.delete(key);
      }
    }
    for (const key of this.failures.keys()) {
      if (this.failures.size < this.maxKeys) break;
      this.failures.delete(key);
    }
  }
}

function pairKey(email: string, ip: string): string {
  return `pair\u0000${email.trim().toLowerCase()}\u0000${ip}`;
}

function ipKey(ip: string): string {
  return `ip\u0000${ip}`;
}
