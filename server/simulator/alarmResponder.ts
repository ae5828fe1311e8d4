import {
  EVERY_HELMET,
  expectsConfirmation,
  type HelmetCommand,
  isAddressedTo,
} from '../../src/domain/helmetCommands';
import type { HelmetEventMessage } from '../../src/domain/live';
import type { Random } from '../../src/domain/seededRandom';
import { seededRandom } from '../../src/domain/seededRandom';

/** Share of helmets whose alarm never confirms (a flat battery, a broken buzzer, firmware). */
export const NEVER_CONFIRMING_SHARE = 0.03;
/**
 * A helmet sounds the alarm and confirms after a log-normal delay (radio retries, the buzzer's
 * start-up, the gateway's forwarding): a median of about 1.8 s, a long tail, within 0.5–8 s.
 */
const DELAY = { medianMs: 1800, sigma: 0.7, minMs: 500, maxMs: 8000 };
/** A helmet out of radio range confirms once heard again, or gives up after this long. */
const GIVE_UP_AFTER_MS = 10 * 60_000;
/** Confirmations due together go out in one array, as a gateway forwards them. */
const FORWARD_EVERY_MS = 50;

export interface AlarmResponderOptions {
  /** Fixes the delays and which helmets never confirm. */
  seed: number;
  /** The helmet's clock, stamped on its confirmation. */
  clock: () => Date;
  /** Whether the helmet is switched on and in radio range now. */
  inRange(tag: string): boolean;
  /** The tags a command to every helmet (`*`) reaches. */
  helmetTags(): Iterable<string>;
  /** Publishes on the site's `…/events`. */
  publish(events: HelmetEventMessage[]): void;
  /** How often an out-of-range helmet looks whether it is heard again (the tick). */
  retryMs: number;
}

export interface AlarmResponder {
  /** A command heard on the site's `…/commands`. */
  handle(command: HelmetCommand): void;
  close(): void;
}

/** A normal deviate from two uniform ones (Box–Muller). */
function normal(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** How long a helmet takes to confirm an alarm, in milliseconds. */
export function confirmationDelayMs(random: Random): number {
  const ms = DELAY.medianMs * Math.exp(DELAY.sigma * normal(random));
  return Math.min(DELAY.maxMs, Math.max(DELAY.minMs, ms));
}

/** FNV-1a of the tag: the same helmet is the faulty one on every drill and every restart. */
function tagHash(tag: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < tag.length; i++) hash = Math.imul(hash ^ tag.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Whether this helmet never confirms an alarm, for a given seed. */
export function neverConfirms(tag: string, seed: number): boolean {
  return seededRandom(tagHash(tag) ^ seed)() < NEVER_CONFIRMING_SHARE;
}

/**
 * The simulated helmets' side of alarm commands: each addressed helmet answers an evacuation
 * alarm or a redirect with `alarmReceived` after a realistic delay, a helmet out of range once it
 * is heard again, and a few helmets never answer. An all-clear cancels answers not yet sent.
 */
export function createAlarmResponder(options: AlarmResponderOptions): AlarmResponder {
  const random = seededRandom(options.seed ^ 0x5bd1e995);
  const pending = new Map<string, NodeJS.Timeout>();
  let outbox: HelmetEventMessage[] = [];
  let forwarding: NodeJS.Timeout | null = null;
  let closed = false;

  const forward = () => {
    forwarding = null;
    const events = outbox;
    outbox = [];
    if (events.length > 0) options.publish(events);
  };

  const answer = (tag: string, giveUpAt: number) => {
    pending.delete(tag);
    if (closed) return;
    if (!options.inRange(tag)) {
      if (Date.now() < giveUpAt)
        pending.set(
          tag,
          setTimeout(() => answer(tag, giveUpAt), options.retryMs),
        );
      return;
    }
    outbox.push({ tag, ts: options.clock().toISOString(), type: 'alarmReceived' });
    forwarding ??= setTimeout(forward, FORWARD_EVERY_MS);
  };

  const cancel = (tag: string) => {
    clearTimeout(pending.get(tag));
    pending.delete(tag);
  };

  return {
    handle(command) {
      if (closed) return;
      const tags = command.tag === EVERY_HELMET ? [...options.helmetTags()] : [command.tag];
      for (const tag of tags) {
        if (!isAddressedTo(command, tag)) continue;
        // A newer command replaces the answer to the older one: one confirmation per command heard.
        cancel(tag);
        if (!expectsConfirmation(command.type) || neverConfirms(tag, options.seed)) continue;
        const giveUpAt = Date.now() + GIVE_UP_AFTER_MS;
        pending.set(
          tag,
          setTimeout(() => answer(tag, giveUpAt), confirmationDelayMs(random)),
        );
      }
    },
    close() {
      closed = true;
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      if (forwarding) clearTimeout(forwarding);
    },
  };
}
