import { randomUUID } from 'node:crypto';
import { can } from '../../src/domain/access';
import {
  EVACUATION_MESSAGES,
  type Evacuation,
  type EvacuationSnapshot,
  type EvacuationWorker,
  type RollPerson,
  SAFETY_EVENTS,
  type StartEvacuationRequest,
  safetyRoom,
} from '../../src/domain/evacuation';
import {
  countEvacuation,
  type EvacuationRuleScope,
  type EvacuationWorkerRecord,
  type StatusChange,
} from '../../src/domain/evacuationRules';
import { floorClearances } from '../../src/domain/floorClearance';
import type { HelmetCommand } from '../../src/domain/helmetCommands';
import { possiblyInsideSince } from '../../src/domain/possiblyInside';
import type { Principal } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { uniqueViolation } from '../db/errors';
import type { Executor, Tx } from '../db/executor';
import { conflict, forbidden } from '../http/errors';
import type { CommittedChanges, CommittedHelmetEvent } from '../live/liveChanges';
import type { LiveSequence } from '../live/liveSequence';
import type { LiveServer } from '../live/liveSocketTypes';
import { includedAtStart, judgeEvacuation, newRecord, type Trigger } from './evacuationJudgement';
import { createEvacuationLifecycles } from './evacuationMachine';
import {
  countUndeliveredAlarms,
  insertRecords,
  insertStatusEvents,
  lockRecords,
  readRecords,
  readRollSummary,
  updateRecords,
} from './evacuationRecords';
import { checkEvacuationScope } from './evacuationScope';
import {
  createSession,
  endSession,
  evacuationOf,
  type HelmetFacts,
  readHelmetFacts,
  runningSession,
  runningSessions,
  type SessionRow,
  selectEvacuationWorkers,
  sessionById,
  siteShifts,
} from './evacuationStore';
import { sendAlarmCleared, sendEvacuationAlarms } from './helmetAlarms';
import { raiseIncident } from './incidentStore';
import {
  type CommittedChange as Committed,
  createMarshalActions,
  type PreparedChange,
} from './marshalActions';
import { activeWorkerMarks, selectRollPeople } from './rollCall';
import type { EvacuationService } from './safetyServices';
import { readSafetySettings } from './safetySettings';

export interface EvacuationServiceRuntime extends EvacuationService {
  /** After a committed position batch (or the offline sweep): re-evaluates those helmets' workers. */
  onHelmetChanges(batch: CommittedChanges): Promise<void>;
  /** After committed helmet events: acknowledge presses re-evaluate, alarm confirmations refresh their workers. */
  onHelmetEvents(siteId: number, events: readonly CommittedHelmetEvent[]): Promise<void>;
  /** At process start: hydrates the machines from the running sessions and re-evaluates everyone. */
  reconcile(): Promise<void>;
  /** Once the MQTT side runs: how alarm commands reach the helmets (none are sent before). */
  bindCommands(publish: (siteId: number, command: HelmetCommand) => Promise<void>): void;
  /** Waits for the evaluations under way. */
  idle(): Promise<void>;
  stop(): void;
}

export interface EvacuationServiceOptions {
  db: Db;
  io: LiveServer;
  sequence: LiveSequence;
  log: { error(details: object, message: string): void };
  /** Tells the site's sockets about incidents raised here (re-entries). */
  publishIncidents?: (siteId: number, incidentIds: readonly number[]) => Promise<void>;
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
  let publishCommand: ((siteId: number, command: HelmetCommand) => Promise<void>) | null = null;
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

  /**
   * The counters and the floors' clearing of a session, from everyone on its roll. At the start
   * (`started`: the records just written) nobody was added by hand and no alarm went out yet.
   */
  async function rollState(
    executor: Executor,
    session: SessionRow,
    started?: readonly EvacuationWorkerRecord[],
  ) {
    const [summary, people, undelivered] = started
      ? [started, [], started.length]
      : await Promise.all([
          readRollSummary(executor, session.id),
          selectRollPeople(executor, session.id),
          countUndeliveredAlarms(executor, session.id),
        ]);
    return {
      counts: countEvacuation([...summary.map((r) => r.status), ...people.map((p) => p.status)], undelivered),
      floorClearances: floorClearances(session.evacuationFloorIds, summary, session.startedAt.toISOString()),
      people,
    };
  }

  /**
   * The running evacuation's full state. At the start the session and its records are at hand
   * (just written, in the site's queue, so nothing changed them since) and are not read again.
   */
  async function snapshotOf(
    siteId: number,
    started?: { session: SessionRow; records: readonly EvacuationWorkerRecord[] },
  ): Promise<EvacuationSnapshot | null> {
    // The cursor first, as the live hub does: a change committed after it comes with a larger seq.
    const cursor = await sequence.current(evacuationStreamRoom(siteId));
    const at = now().toISOString();
    const session = started?.session ?? (await running(siteId));
    if (!session) return null;
    const records = started?.records ?? (await readRecords(db, session.id));
    const [state, evacuation, workers] = await Promise.all([
      rollState(db, session, started?.records),
      evacuationOf(db, session),
      selectEvacuationWorkers(db, session.id, records, started !== undefined),
    ]);
    return {
      ...cursor,
      evacuation,
      workers,
      rollPeople: state.people,
      floorClearances: state.floorClearances,
      counts: state.counts,
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

  /** Sends what a committed change did: the workers and roll people changed, with the counts after it. */
  async function sendBatch(siteId: number, sessionId: string, committed: Committed): Promise<void> {
    const session = await sessionById(db, sessionId);
    if (!session) return;
    const state = await rollState(db, session);
    const wanted = new Set(committed.rollPersonIds ?? []);
    const rollPeople: RollPerson[] = state.people.filter((p) => wanted.has(p.id));
    const workers: EvacuationWorker[] = await selectEvacuationWorkers(db, session.id, committed.records);
    const cursor = await sequence.next(evacuationStreamRoom(siteId));
    io.to(safetyRoom(siteId)).emit(SAFETY_EVENTS.evacuating, {
      ...cursor,
      siteId,
      evacuationSessionId: session.id,
      workers,
      rollPeople,
      floorClearances: state.floorClearances,
      counts: state.counts,
      ...(committed.sessionChanged ? { evacuation: await evacuationOf(db, session) } : {}),
    });
    if (committed.incidentIds.length > 0 && options.publishIncidents)
      await options
        .publishIncidents(siteId, committed.incidentIds)
        .catch((error: unknown) =>
          log.error({ err: error, siteId }, 'evacuation: re-entry incidents not sent'),
        );
  }

  /** Raises one re-entry incident per worker turning reEntered in `changes`, in the caller's transaction. */
  async function raiseReEntries(
    tx: Executor,
    session: SessionRow,
    changes: readonly StatusChange[],
    records: readonly EvacuationWorkerRecord[],
    facts: readonly HelmetFacts[],
  ): Promise<number[]> {
    const ids: number[] = [];
    const factsByInventory = new Map(facts.map((f) => [f.inventoryItemId, f]));
    const recordByWorker = new Map(records.map((r) => [r.workerId, r]));
    for (const change of changes) {
      if (change.to !== 'reEntered') continue;
      const record = recordByWorker.get(change.workerId);
      if (!record) continue;
      const fact = factsByInventory.get(record.inventoryItemId);
      const id = await raiseIncident(
        tx as Db,
        {
          siteId: session.siteId,
          type: 'reEntry',
          inventoryItemId: record.inventoryItemId,
          workerId: record.workerId,
          floorId: fact?.floorId ?? null,
          zoneId: fact?.zoneId ?? null,
          ts: new Date(change.at),
        },
        new Date(change.at),
      );
      if (id !== null) ids.push(id);
    }
    return ids;
  }

  /** When each marked worker of the session was marked (active marks only). */
  async function markTimes(executor: Executor, sessionId: string, workerIds?: readonly number[]) {
    const marks = await activeWorkerMarks(executor, sessionId, workerIds);
    return new Map([...marks].map(([workerId, mark]) => [workerId, mark.markedAt]));
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
    const marks = await markTimes(db, session.id, inventoryIds ? records.map((r) => r.workerId) : undefined);
    const preview = judgeEvacuation(session, records, facts, at, triggers, marks);
    const candidates = [
      ...preview.updated.map((r) => r.inventoryItemId),
      ...preview.joining.map((j) => j.record.inventoryItemId),
    ];
    if (candidates.length === 0) return;
    const committed = await commitEvaluation(session, candidates, at, triggers);
    if (!committed) return;
    await sendBatch(siteId, session.id, committed);
    // Whoever walks into the area after the start hears the alarm too.
    void soundAlarms(siteId, session.id, committed.joined ?? [], 'evacuate');
  }

  /**
   * Locks the candidates' records, judges them on fresh facts and writes what changed, in one
   * transaction; `prepare` runs first in it (a marshal's mark, a redirect) and may change the session.
   */
  function commitEvaluation(
    initial: SessionRow,
    inventoryIds: readonly number[] | null,
    at: string,
    triggers: ReadonlySet<Trigger>,
    prepare?: (tx: Tx) => Promise<PreparedChange | undefined>,
  ): Promise<Committed | null> {
    return db.transaction(async (tx) => {
      const prepared = prepare ? await prepare(tx) : undefined;
      const session = prepared?.session ?? initial;
      const some = inventoryIds ?? undefined;
      // Locked before the facts are read again: whoever waits for the lock reads the newer facts.
      const locked = await lockRecords(tx, session.id, some);
      const lockedFacts = await readHelmetFacts(tx, session.siteId, session.startedAt.toISOString(), some);
      const marks = await markTimes(
        tx,
        session.id,
        locked.map((r) => r.workerId),
      );
      const { updated, changes, joining } = judgeEvacuation(
        session,
        locked,
        lockedFacts,
        at,
        triggers,
        marks,
      );
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
      const changedWorkers = new Set(changed.map((r) => r.workerId));
      const touched = (prepared?.touched ?? []).filter((r) => !changedWorkers.has(r.workerId));
      if (changed.length === 0 && !prepared) return null;
      const incidentIds = await raiseReEntries(tx, session, changes, changed, lockedFacts);
      const joinedHelmets = new Set(joined.map((j) => j.record.inventoryItemId));
      return {
        records: [...changed, ...touched],
        incidentIds,
        rollPersonIds: prepared?.rollPersonIds,
        sessionChanged: prepared?.session !== undefined,
        joined: lockedFacts.filter((f) => joinedHelmets.has(f.inventoryItemId)),
      };
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

  /** Since when a silent helmet still counts as possibly inside at an alarm on the site. */
  async function possiblyInsideFrom(siteId: number, alarmAt: Date): Promise<Date> {
    const [settings, { timeZone, shifts }] = await Promise.all([
      readSafetySettings(db, siteId),
      siteShifts(db, siteId),
    ]);
    return possiblyInsideSince(alarmAt, settings, shifts, timeZone);
  }

  /** Sounds the alarm on helmets (after the commit: a failure to publish never undoes the evacuation). */
  function soundAlarms(
    siteId: number,
    sessionId: string,
    helmets: readonly HelmetFacts[],
    kind: 'evacuate' | 'redirect',
    zoneId?: number,
  ): Promise<void> {
    const publish = publishCommand;
    if (!publish || helmets.length === 0) return Promise.resolve();
    return sendEvacuationAlarms(
      { db, publishCommand: publish, now },
      {
        siteId,
        sessionId,
        kind,
        zoneId,
        helmets: helmets.map((h) => ({
          inventoryItemId: h.inventoryItemId,
          workerId: h.workerId,
          tag: h.tag,
        })),
      },
    ).catch((error: unknown) => log.error({ err: error, siteId }, 'evacuation: alarm commands not sent'));
  }

  async function start(principal: Principal, request: StartEvacuationRequest): Promise<Evacuation> {
    const scope = await checkEvacuationScope(db, principal, request);
    const { siteId } = request;
    let alarmed: HelmetFacts[] = [];
    let sessionId = '';
    const evacuation = await queued(siteId, async () => {
      await running(siteId);
      sessionId = randomUUID();
      if (!lifecycles.snapshot(siteId).can({ type: 'evacuation.start', sessionId }))
        throw conflict(EVACUATION_MESSAGES.alreadyRunning);
      const startedAt = now();
      const rules: EvacuationRuleScope = {
        startedAt: startedAt.toISOString(),
        assemblyZoneIds: scope.assemblyZoneIds,
        safeZone: request.safeZone,
        floorIds: scope.floorIds,
        zoneIds: scope.zoneIds,
      };
      const [facts, since] = await Promise.all([
        readHelmetFacts(db, siteId, rules.startedAt),
        possiblyInsideFrom(siteId, startedAt),
      ]);
      alarmed = facts.filter((fact) => includedAtStart(fact, scope, since));
      const inclusions = alarmed.map((fact) => newRecord(fact, rules, rules.startedAt, 'start'));
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
      const snapshot = await snapshotOf(siteId, { session, records: inclusions.map((i) => i.record) });
      if (snapshot) io.to(safetyRoom(siteId)).emit(SAFETY_EVENTS.evacuationInProgress, snapshot);
      return snapshot?.evacuation ?? evacuationOf(db, session);
    });
    void soundAlarms(siteId, sessionId, alarmed, 'evacuate');
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
    const evacuation = await queued(siteId, async () => {
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
    const publish = publishCommand;
    if (publish) {
      const records = await readRecords(db, evacuationSessionId);
      const facts = await readHelmetFacts(
        db,
        siteId,
        evacuation.evacuationStartAt,
        records.map((r) => r.inventoryItemId),
      );
      void sendAlarmCleared(
        { db, publishCommand: publish, now },
        { siteId, sessionId: evacuationSessionId, tags: facts.map((f) => f.tag) },
      ).catch((error: unknown) => log.error({ err: error, siteId }, 'evacuation: alarm cleared not sent'));
    }
    return evacuation;
  }

  const marshal = createMarshalActions({
    db,
    now,
    queued,
    running,
    commitEvaluation,
    sendBatch,
    possiblyInsideFrom,
    soundAlarms,
  });

  return {
    start,
    end,
    ...marshal,
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
      const confirmed = unique(
        events.filter((e) => e.type === 'alarmReceived').map((e) => e.inventoryItemId),
      );
      if (confirmed.length > 0)
        await queued(siteId, async () => {
          const session = await running(siteId);
          if (!session) return;
          const records = await readRecords(db, session.id, confirmed);
          if (records.length > 0) await sendBatch(siteId, session.id, { records, incidentIds: [] });
        }).catch((error: unknown) => reportFailure(siteId, error));
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

    bindCommands(publish) {
      publishCommand = publish;
    },

    async idle() {
      await Promise.all([...queues.values()]);
    },

    stop() {
      lifecycles.stop();
    },
  };
}
