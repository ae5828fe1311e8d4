import { randomUUID } from 'node:crypto';
import { can } from '../../src/domain/access';
import {
  EVACUATION_MESSAGES,
  type Evacuation,
  type EvacuationSnapshot,
  SAFETY_EVENTS,
  type StartEvacuationRequest,
  safetyRoom,
} from '../../src/domain/evacuation';
import {
  countEvacuation,
  type EvacuationRuleScope,
  isInEvacuatedArea,
} from '../../src/domain/evacuationRules';
import type { Principal } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { uniqueViolation } from '../db/errors';
import { conflict, forbidden } from '../http/errors';
import type { CommittedChanges, CommittedHelmetEvent } from '../live/liveChanges';
import type { LiveSequence } from '../live/liveSequence';
import type { LiveServer } from '../live/liveSocketTypes';
import { judgeEvacuation, newRecord, type Trigger } from './evacuationJudgement';
import { createEvacuationLifecycles } from './evacuationMachine';
import {
  insertRecords,
  insertStatusEvents,
  lockRecords,
  readRecords,
  readStatuses,
  updateRecords,
} from './evacuationRecords';
import { checkEvacuationScope } from './evacuationScope';
import {
  createSession,
  endSession,
  evacuationOf,
  readHelmetFacts,
  runningSession,
  runningSessions,
  type SessionRow,
  selectEvacuationWorkers,
  sessionById,
} from './evacuationStore';
import type { EvacuationService } from './safetyServices';

export interface EvacuationServiceRuntime extends EvacuationService {
  /** After a committed position batch (or the offline sweep): re-evaluates those helmets' workers. */
  onHelmetChanges(batch: CommittedChanges): Promise<void>;
  /** After committed helmet events: acknowledge presses re-evaluate their workers. */
  onHelmetEvents(siteId: number, events: readonly CommittedHelmetEvent[]): Promise<void>;
  /** At process start: hydrates the machines from the running sessions and re-evaluates everyone. */
  reconcile(): Promise<void>;
  /** Waits for the evaluations under way. */
  idle(): Promise<void>;
  stop(): void;
}

export interface EvacuationServiceOptions {
  db: Db;
  io: LiveServer;
  sequence: LiveSequence;
  log: { error(details: object, message: string): void };
  now?: () => Date;
}

/** The sequence room of a site's evacuation stream (LiveSequence keys). */
export function evacuationStreamRoom(siteId: number): string {
  return `evacuation:${siteId}`;
}

export const SAFETY_SERVICE_ERROR_MESSAGE =
  'Evacuation statuses could not be updated; the figures shown may be out of date';

interface PendingEvaluation {
  /** null: every helmet of the site. */
  inventoryIds: Set<number> | null;
  triggers: Set<Trigger>;
  done: Promise<void>;
}

const unique = (ids: readonly number[]) => [...new Set(ids)];

/**
 * The evacuation lifecycle and the statuses of the included workers. Statuses are only ever
 * computed by nextWorkerRecord from facts read from the database, and every change is written
 * with its status event in one transaction before it is sent, so what the sockets show is what a
 * restarted process would compute again.
 */
export function createEvacuationService(options: EvacuationServiceOptions): EvacuationServiceRuntime {
  const { db, io, sequence, log } = options;
  const now = options.now ?? (() => new Date());
  const lifecycles = createEvacuationLifecycles();
  // One site's lifecycle steps and evaluations run one after the other, so its batches leave in seq order.
  const queues = new Map<number, Promise<unknown>>();

  function queued<T>(siteId: number, work: () => Promise<T>): Promise<T> {
    const result = (queues.get(siteId) ?? Promise.resolve()).then(work);
    const settled = result.catch(() => {});
    queues.set(siteId, settled);
    void settled.then(() => {
      if (queues.get(siteId) === settled) queues.delete(siteId);
    });
    return result;
  }

  async function running(siteId: number): Promise<SessionRow | null> {
    const session = await runningSession(db, siteId);
    lifecycles.sync(siteId, session?.id ?? null);
    return session;
  }

  async function snapshotOf(siteId: number): Promise<EvacuationSnapshot | null> {
    // The cursor first, as the live hub does: a change committed after it comes with a larger seq.
    const cursor = await sequence.current(evacuationStreamRoom(siteId));
    const at = now().toISOString();
    const session = await running(siteId);
    if (!session) return null;
    const records = await readRecords(db, session.id);
    return {
      ...cursor,
      evacuation: await evacuationOf(db, session),
      workers: await selectEvacuationWorkers(db, records),
      counts: countEvacuation(records.map((r) => r.status)),
      at,
    };
  }

  function reportFailure(siteId: number, error: unknown): void {
    log.error({ err: error, siteId }, 'evacuation: evaluation failed');
    io.to(safetyRoom(siteId)).emit(SAFETY_EVENTS.safetyServiceError, {
      siteId,
      message: SAFETY_SERVICE_ERROR_MESSAGE,
    });
  }

  /**
   * Re-evaluates the workers of some helmets (or every helmet of the site) and sends what changed.
   * Most batches change no status (people keep walking), so the facts are first judged without a
   * lock; only the helmets whose status would change are locked, read again and written.
   */
  async function evaluate(
    siteId: number,
    inventoryIds: readonly number[] | null,
    triggers: ReadonlySet<Trigger>,
  ) {
    const session = await running(siteId);
    if (!session) return;
    const startedAt = session.startedAt.toISOString();
    const at = now().toISOString();
    const some = inventoryIds ?? undefined;
    const [records, facts] = await Promise.all([
      readRecords(db, session.id, some),
      readHelmetFacts(db, siteId, startedAt, some),
    ]);
    const preview = judgeEvacuation(session, records, facts, at, triggers);
    const candidates = [
      ...preview.updated.map((r) => r.inventoryItemId),
      ...preview.joining.map((j) => j.record.inventoryItemId),
    ];
    if (candidates.length === 0) return;

    const outcome = await db.transaction(async (tx) => {
      // Locked before the facts are read again: whoever waits for the lock reads the newer facts.
      const locked = await lockRecords(tx, session.id, candidates);
      const lockedFacts = await readHelmetFacts(tx, siteId, startedAt, candidates);
      const { updated, changes, joining } = judgeEvacuation(session, locked, lockedFacts, at, triggers);
      const added = await insertRecords(
        tx,
        session.id,
        joining.map((j) => j.record),
      );
      const joined = joining.filter((j) => added.has(j.record.workerId));
      changes.push(...joined.flatMap((j) => (j.change ? [j.change] : [])));
      await updateRecords(tx, session.id, updated);
      await insertStatusEvents(tx, session.id, changes);
      const changed = [...updated, ...joined.map((j) => j.record)];
      if (changed.length === 0) return null;
      return { changed, counts: countEvacuation(await readStatuses(tx, session.id)) };
    });
    if (!outcome) return;
    const workers = await selectEvacuationWorkers(db, outcome.changed);
    const cursor = await sequence.next(evacuationStreamRoom(siteId));
    io.to(safetyRoom(siteId)).emit(SAFETY_EVENTS.evacuating, {
      ...cursor,
      siteId,
      evacuationSessionId: session.id,
      workers,
      counts: outcome.counts,
    });
  }

  /**
   * Helmets waiting for their site's next evaluation. Batches arriving while one runs are merged
   * into the next, so a burst costs one evaluation rather than one per batch and the work never
   * piles up behind the ingest. At most one is pending per site: it leaves the map when it starts.
   */
  const pendingBySite = new Map<number, PendingEvaluation>();

  function evaluateSafely(siteId: number, inventoryIds: readonly number[] | null, trigger: Trigger) {
    let pending = pendingBySite.get(siteId);
    if (!pending) {
      const created: PendingEvaluation = {
        inventoryIds: new Set(),
        triggers: new Set(),
        done: Promise.resolve(),
      };
      created.done = queued(siteId, () => {
        pendingBySite.delete(siteId);
        return evaluate(siteId, created.inventoryIds && [...created.inventoryIds], created.triggers);
      }).catch((error: unknown) => reportFailure(siteId, error));
      pendingBySite.set(siteId, created);
      pending = created;
    }
    if (inventoryIds === null) pending.inventoryIds = null;
    else if (pending.inventoryIds) for (const id of inventoryIds) pending.inventoryIds.add(id);
    pending.triggers.add(trigger);
    return pending.done;
  }

  async function start(principal: Principal, request: StartEvacuationRequest): Promise<Evacuation> {
    const scope = await checkEvacuationScope(db, principal, request);
    const { siteId } = request;
    const evacuation = await queued(siteId, async () => {
      await running(siteId);
      const sessionId = randomUUID();
      if (!lifecycles.snapshot(siteId).can({ type: 'evacuation.start', sessionId }))
        throw conflict(EVACUATION_MESSAGES.alreadyRunning);
      const startedAt = now();
      const rules: EvacuationRuleScope = {
        startedAt: startedAt.toISOString(),
        assemblyZoneIds: scope.assemblyZoneIds,
        safeZone: request.safeZone,
      };
      const facts = await readHelmetFacts(db, siteId, rules.startedAt);
      const inclusions = facts
        .filter((fact) => fact.workerId !== null && isInEvacuatedArea(fact, scope))
        .map((fact) => newRecord(fact, rules, rules.startedAt, 'start'));
      let session: SessionRow;
      try {
        session = await createSession(
          db,
          {
            id: sessionId,
            siteId,
            startedAt,
            startedBy: principal.id,
            floorIds: scope.floorIds,
            zoneIds: scope.zoneIds,
            assemblyZoneIds: scope.assemblyZoneIds,
            safeZoneId: request.safeZone,
            gatewayId: request.gateWayId,
            evacuationFloorIds: scope.evacuationFloorIds,
          },
          inclusions.map((i) => i.record),
          inclusions.flatMap((i) => (i.change ? [i.change] : [])),
        );
      } catch (error) {
        // Another process started one between our check and our insert.
        if (uniqueViolation(error)) throw conflict(EVACUATION_MESSAGES.alreadyRunning);
        throw error;
      }
      lifecycles.send(siteId, { type: 'evacuation.start', sessionId: session.id });
      const snapshot = await snapshotOf(siteId);
      if (snapshot) io.to(safetyRoom(siteId)).emit(SAFETY_EVENTS.evacuationInProgress, snapshot);
      return snapshot?.evacuation ?? evacuationOf(db, session);
    });
    // Positions committed while the session was being created were published before it existed.
    void evaluateSafely(siteId, null, 'position');
    return evacuation;
  }

  async function end(
    principal: Principal,
    request: { siteId: number; evacuationSessionId: string },
  ): Promise<Evacuation> {
    if (!can(principal.role, 'write', 'evacuation')) throw forbidden(EVACUATION_MESSAGES.forbidden);
    await requireSite(db, principal, request.siteId);
    const { siteId, evacuationSessionId } = request;
    return queued(siteId, async () => {
      const current = await running(siteId);
      if (!current) {
        const past = await sessionById(db, evacuationSessionId);
        throw conflict(
          past?.siteId === siteId ? EVACUATION_MESSAGES.wrongSession : EVACUATION_MESSAGES.notRunning,
        );
      }
      if (!lifecycles.snapshot(siteId).can({ type: 'evacuation.end', sessionId: evacuationSessionId }))
        throw conflict(EVACUATION_MESSAGES.wrongSession);
      const endedAt = now();
      const ended = await endSession(db, evacuationSessionId, principal.id, endedAt);
      if (!ended) throw conflict(EVACUATION_MESSAGES.wrongSession);
      lifecycles.send(siteId, { type: 'evacuation.end', sessionId: evacuationSessionId });
      const evacuation = await evacuationOf(db, ended);
      io.to(safetyRoom(siteId)).emit(SAFETY_EVENTS.evacuationEnded, {
        siteId,
        evacuationSessionId,
        endedAt: endedAt.toISOString(),
        endedBy: evacuation.endedBy,
      });
      return evacuation;
    });
  }

  return {
    start,
    end,
    async running(siteId) {
      const session = await running(siteId);
      return session ? evacuationOf(db, session) : null;
    },
    snapshot: (siteId) => queued(siteId, () => snapshotOf(siteId)),

    async onHelmetChanges({ siteId, changes }) {
      if (changes.length === 0) return;
      await evaluateSafely(
        siteId,
        changes.map((c) => c.worker.inventory_id),
        'position',
      );
    },

    async onHelmetEvents(siteId, events) {
      const pressed = events.filter((e) => e.type === 'acknowledge').map((e) => e.inventoryItemId);
      if (pressed.length === 0) return;
      await evaluateSafely(siteId, unique(pressed), 'acknowledge');
    },

    async reconcile() {
      const sessions = await runningSessions(db);
      for (const session of sessions) {
        lifecycles.sync(session.siteId, session.id);
        await evaluateSafely(session.siteId, null, 'reconcile');
      }
    },

    async idle() {
      await Promise.all([...queues.values()]);
    },

    stop() {
      lifecycles.stop();
    },
  };
}
