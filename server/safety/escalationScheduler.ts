import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { escalateIncident } from './escalationSteps';
import { dueIncidentIds, earliestEscalationDue } from './incidentStore';

export interface EscalationSchedulerOptions {
  db: Db;
  /** The console's address, for the link in the e-mails. */
  publicUrl: () => string;
  /** Tells the site's sockets about incidents that climbed (`safetyEvents`). */
  publishIncidents(siteId: number, incidentIds: readonly number[]): Promise<void>;
  log: Pick<FastifyBaseLogger, 'error' | 'info'>;
  /** The clock; tests move it forward instead of waiting minutes. */
  now?: () => Date;
  /** The longest sleep: incidents raised by another process are seen within it. */
  intervalMs?: number;
  /** Incidents escalated per round before looking again. */
  batchSize?: number;
}

export interface EscalationScheduler {
  /** Looks for due incidents now (after a raise, or a test moving the clock). */
  wake(): void;
  /** One round: escalates what is due; resolves with how many climbed. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

const DEFAULT_INTERVAL_MS = 5_000;

/**
 * Escalates incidents nobody acknowledged in time, one level per due step. It sleeps until the
 * earliest step (at most `intervalMs`), then escalates each due incident in its own transaction.
 * Everything it knows is in the database, so a restart picks up where it stopped, and each row is
 * locked with SKIP LOCKED, so several server processes share the work without doubling a step.
 */
export function startEscalationScheduler(options: EscalationSchedulerOptions): EscalationScheduler {
  const { db, log } = options;
  const now = options.now ?? (() => new Date());
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const batchSize = options.batchSize ?? 100;
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<void> | null = null;
  let stopped = false;
  let wokenDuringRound = false;

  async function escalateDue(): Promise<{ count: number; failed: boolean }> {
    const at = now();
    const climbed = new Map<number, number[]>();
    let failed = false;
    for (const incidentId of await dueIncidentIds(db, at, batchSize)) {
      try {
        const outcome = await db.transaction((tx) =>
          escalateIncident(
            tx,
            incidentId,
            null,
            { now: at, publicUrl: options.publicUrl() },
            { onlyIfDue: true },
          ),
        );
        if (outcome?.done) climbed.set(outcome.siteId, [...(climbed.get(outcome.siteId) ?? []), incidentId]);
      } catch (error) {
        failed = true;
        log.error({ err: error, incidentId }, 'safety: escalating an incident failed');
      }
    }
    for (const [siteId, ids] of climbed) {
      log.info({ siteId, incidentIds: ids }, 'safety: incidents escalated automatically');
      await options.publishIncidents(siteId, ids).catch((error) => {
        log.error({ err: error, siteId }, 'safety: publishing escalated incidents failed');
      });
    }
    return { count: [...climbed.values()].reduce((sum, ids) => sum + ids.length, 0), failed };
  }

  async function nextDelay(failed: boolean): Promise<number> {
    // A failing incident stays due: wait a whole interval rather than spin on it.
    if (failed) return intervalMs;
    const earliest = await earliestEscalationDue(db);
    if (!earliest) return intervalMs;
    return Math.min(intervalMs, Math.max(0, earliest.getTime() - now().getTime()));
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, delayMs);
    timer.unref?.();
  }

  function run() {
    timer = null;
    if (stopped || round) {
      wokenDuringRound = round !== null;
      return;
    }
    round = (async () => {
      let failed = true;
      try {
        ({ failed } = await escalateDue());
      } catch (error) {
        log.error({ err: error }, 'safety: the escalation round failed');
      }
      let delay = intervalMs;
      try {
        delay = await nextDelay(failed);
      } catch (error) {
        log.error({ err: error }, 'safety: reading the next escalation failed');
      }
      round = null;
      schedule(wokenDuringRound ? 0 : delay);
      wokenDuringRound = false;
    })();
  }

  schedule(0);
  return {
    wake: () => schedule(0),
    runOnce: async () => (await escalateDue()).count,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await round;
    },
  };
}
