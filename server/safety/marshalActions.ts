import { eq } from 'drizzle-orm';
import { can } from '../../src/domain/access';
import { EVACUATION_MESSAGES, type Evacuation } from '../../src/domain/evacuation';
import { type EvacuationWorkerRecord, redirectRecord } from '../../src/domain/evacuationRules';
import { markReasonProblem, rollPersonProblems } from '../../src/domain/rollCall';
import type { Principal } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import type { Tx } from '../db/executor';
import { evacuationScopeEvents, evacuationSessions } from '../db/schema';
import { conflict, forbidden, notFound, unprocessable } from '../http/errors';
import type { Trigger } from './evacuationJudgement';
import { includedAtStart, newRecord, ruleScope } from './evacuationJudgement';
import {
  insertRecords,
  insertStatusEvents,
  lockRecords,
  recordOfWorker,
  updateRecords,
} from './evacuationRecords';
import {
  evacuationOf,
  type HelmetFacts,
  readHelmetFacts,
  type SessionRow,
  siteFloorsAndZones,
} from './evacuationStore';
import { insertMark, insertRollPerson, lockMark, rollPersonOf, undoMark } from './rollCall';

/** What a marshal's action did before the evaluation that follows it in the same transaction. */
export interface PreparedChange {
  /** The session as changed (area grown, assembly zones changed). */
  session?: SessionRow;
  /** Records written by the action whose status may not change (a redirect), sent all the same. */
  touched?: EvacuationWorkerRecord[];
  rollPersonIds?: number[];
}

/** Who the action is about: an included worker, or a person added to the roll. */
export type MarkSubject = { workerId: number } | { rollPersonId: number };

export interface MarkRequest {
  siteId: number;
  evacuationSessionId: string;
  subject: MarkSubject;
  reason: string;
}

export interface MarshalActions {
  /** Marks a person accounted for by hand, with a reason; a later sighting inside still wins. */
  mark(principal: Principal, request: MarkRequest): Promise<void>;
  /** Undoes a mark (the mark stays in the record with who undid it and when). */
  unmark(
    principal: Principal,
    request: { siteId: number; evacuationSessionId: string; markId: number },
  ): Promise<void>;
  /** Adds a person without a helmet to the roll; with a reason, marked at once. */
  addRollPerson(
    principal: Principal,
    request: {
      siteId: number;
      evacuationSessionId: string;
      name: string;
      company: string;
      reason: string | null;
    },
  ): Promise<{ id: number }>;
  /** Phased evacuation: adds floors and zones to the running one; their helmets join the roll and hear the alarm. */
  extendArea(
    principal: Principal,
    request: { siteId: number; evacuationSessionId: string; floorIds: number[]; zoneIds: number[] },
  ): Promise<Evacuation>;
  /** An assembly zone is unsafe: its people are sent to another one, and only that one makes them safe. */
  redirect(
    principal: Principal,
    request: { siteId: number; evacuationSessionId: string; unsafeZoneId: number; redirectZoneId: number },
  ): Promise<Evacuation>;
}

/** What one evaluation or marshal action changed, to be sent once committed. */
export interface CommittedChange {
  records: EvacuationWorkerRecord[];
  rollPersonIds?: number[];
  incidentIds: number[];
  sessionChanged?: boolean;
  /** Helmets that joined the roll in this change (they get the alarm). */
  joined?: HelmetFacts[];
}

export interface MarshalActionDeps {
  db: Db;
  now: () => Date;
  queued<T>(siteId: number, work: () => Promise<T>): Promise<T>;
  running(siteId: number): Promise<SessionRow | null>;
  commitEvaluation(
    session: SessionRow,
    inventoryIds: readonly number[] | null,
    at: string,
    triggers: ReadonlySet<Trigger>,
    prepare?: (tx: Tx) => Promise<PreparedChange | undefined>,
  ): Promise<CommittedChange | null>;
  sendBatch(siteId: number, sessionId: string, committed: CommittedChange): Promise<void>;
  possiblyInsideFrom(siteId: number, alarmAt: Date): Promise<Date>;
  soundAlarms(
    siteId: number,
    sessionId: string,
    helmets: readonly HelmetFacts[],
    kind: 'evacuate' | 'redirect',
    zoneId?: number,
  ): Promise<void>;
}

const unique = (ids: readonly number[]) => [...new Set(ids)];

/**
 * What a marshal does during a running evacuation. Each action checks role and site, runs in the
 * site's queue (so its batch leaves in order), writes in one transaction together with the
 * re-evaluation of the people it touches, and only then is sent.
 */
export function createMarshalActions(deps: MarshalActionDeps): MarshalActions {
  const { db, now, queued } = deps;
  const send = deps.sendBatch;

  async function allowed(principal: Principal, siteId: number): Promise<void> {
    if (!can(principal.role, 'write', 'evacuation')) throw forbidden(EVACUATION_MESSAGES.markForbidden);
    await requireSite(db, principal, siteId);
  }

  /** The running session, which must be the one the marshal's screen shows. */
  async function current(siteId: number, sessionId: string): Promise<SessionRow> {
    const session = await deps.running(siteId);
    if (!session) throw conflict(EVACUATION_MESSAGES.notRunning);
    if (session.id !== sessionId) throw conflict(EVACUATION_MESSAGES.wrongSession);
    return session;
  }

  /** Writes a mark (or its undo) and re-evaluates the person it is about, in one transaction. */
  async function markAndEvaluate(
    session: SessionRow,
    subject: MarkSubject,
    trigger: 'mark' | 'unmark',
    write: (tx: Tx) => Promise<void>,
  ): Promise<void> {
    const at = now().toISOString();
    if ('rollPersonId' in subject) {
      const committed = await deps.commitEvaluation(session, [], at, new Set([trigger]), async (tx) => {
        await write(tx);
        return { rollPersonIds: [subject.rollPersonId] };
      });
      if (committed) await send(session.siteId, session.id, committed);
      return;
    }
    const record = await recordOfWorker(db, session.id, subject.workerId);
    if (!record)
      throw unprocessable({ workerId: EVACUATION_MESSAGES.notIncluded }, EVACUATION_MESSAGES.notIncluded);
    const committed = await deps.commitEvaluation(
      session,
      [record.inventoryItemId],
      at,
      new Set([trigger]),
      async (tx) => {
        await write(tx);
        return { touched: [record] };
      },
    );
    if (committed) await send(session.siteId, session.id, committed);
  }

  return {
    async mark(principal, request) {
      await allowed(principal, request.siteId);
      const problem = markReasonProblem(request.reason);
      if (problem) throw unprocessable({ reason: problem }, problem);
      await queued(request.siteId, async () => {
        const session = await current(request.siteId, request.evacuationSessionId);
        const subject = request.subject;
        if ('rollPersonId' in subject && !(await rollPersonOf(db, session.id, subject.rollPersonId)))
          throw unprocessable(
            { rollPersonId: EVACUATION_MESSAGES.notIncluded },
            EVACUATION_MESSAGES.notIncluded,
          );
        await markAndEvaluate(session, subject, 'mark', async (tx) => {
          await insertMark(tx, {
            sessionId: session.id,
            workerId: 'workerId' in subject ? subject.workerId : null,
            rollPersonId: 'rollPersonId' in subject ? subject.rollPersonId : null,
            reason: request.reason.trim(),
            markedBy: principal.id,
            markedAt: now(),
          });
        });
      });
    },

    async unmark(principal, request) {
      await allowed(principal, request.siteId);
      await queued(request.siteId, async () => {
        const session = await current(request.siteId, request.evacuationSessionId);
        const mark = await lockMark(db, session.id, request.markId);
        if (!mark) throw conflict(EVACUATION_MESSAGES.markNotFound);
        if (mark.undoneAt !== null) throw conflict(EVACUATION_MESSAGES.markAlreadyUndone);
        const subject: MarkSubject =
          mark.workerId !== null
            ? { workerId: mark.workerId }
            : { rollPersonId: mark.rollPersonId as number };
        await markAndEvaluate(session, subject, 'unmark', async (tx) => {
          const again = await lockMark(tx, session.id, request.markId);
          if (!again || again.undoneAt !== null) throw conflict(EVACUATION_MESSAGES.markAlreadyUndone);
          await undoMark(tx, request.markId, principal.id, now());
        });
      });
    },

    async addRollPerson(principal, request) {
      await allowed(principal, request.siteId);
      const person = { name: request.name.trim(), company: request.company.trim() };
      const problems = rollPersonProblems(person);
      const reasonProblem = request.reason === null ? null : markReasonProblem(request.reason);
      if (reasonProblem) problems.reason = reasonProblem;
      const first = Object.values(problems)[0];
      if (first) throw unprocessable(problems, first);
      return queued(request.siteId, async () => {
        const session = await current(request.siteId, request.evacuationSessionId);
        let id = 0;
        const committed = await deps.commitEvaluation(
          session,
          [],
          now().toISOString(),
          new Set(['mark']),
          async (tx) => {
            id = await insertRollPerson(tx, {
              sessionId: session.id,
              ...person,
              addedBy: principal.id,
              addedAt: now(),
            });
            if (request.reason !== null)
              await insertMark(tx, {
                sessionId: session.id,
                workerId: null,
                rollPersonId: id,
                reason: request.reason.trim(),
                markedBy: principal.id,
                markedAt: now(),
              });
            return { rollPersonIds: [id] };
          },
        );
        if (committed) await send(session.siteId, session.id, committed);
        return { id };
      });
    },

    async extendArea(principal, request) {
      await allowed(principal, request.siteId);
      let alarmed: HelmetFacts[] = [];
      let sessionId = '';
      const evacuation = await queued(request.siteId, async () => {
        const session = await current(request.siteId, request.evacuationSessionId);
        sessionId = session.id;
        const floorIds = unique(request.floorIds).filter((id) => !session.floorIds.includes(id));
        const zoneIds = unique(request.zoneIds).filter((id) => !session.zoneIds.includes(id));
        if (floorIds.length === 0 && zoneIds.length === 0)
          throw unprocessable(
            { floorIds: EVACUATION_MESSAGES.nothingToAdd },
            EVACUATION_MESSAGES.nothingToAdd,
          );
        const found = await siteFloorsAndZones(db, session.siteId, floorIds, zoneIds);
        if (floorIds.some((id) => !found.floorIds.has(id))) throw notFound('Floor');
        if (zoneIds.some((id) => !found.zoneFloorById.has(id))) throw notFound('Zone');
        const at = now();
        const since = await deps.possiblyInsideFrom(session.siteId, new Date(session.startedAt));
        const committed = await deps.commitEvaluation(
          session,
          null,
          at.toISOString(),
          new Set(['position']),
          async (tx) => {
            const [grown] = await tx
              .update(evacuationSessions)
              .set({
                floorIds: [...session.floorIds, ...floorIds],
                zoneIds: [...session.zoneIds, ...zoneIds],
                evacuationFloorIds: unique([
                  ...session.evacuationFloorIds,
                  ...floorIds,
                  ...zoneIds.map((id) => found.zoneFloorById.get(id) as number),
                ]),
              })
              .where(eq(evacuationSessions.id, session.id))
              .returning();
            await tx.insert(evacuationScopeEvents).values({
              sessionId: session.id,
              kind: 'addArea',
              detail: { floorIds, zoneIds },
              by: principal.id,
              at,
            });
            // Helmets in the added area are included as at a start: online, or silent but possibly inside.
            const facts = await readHelmetFacts(tx, session.siteId, session.startedAt.toISOString());
            const included = new Set((await lockRecords(tx, session.id)).map((r) => r.workerId));
            alarmed = facts.filter(
              (fact) =>
                includedAtStart(fact, { floorIds, zoneIds }, since) && !included.has(fact.workerId as number),
            );
            const inclusions = alarmed.map((fact) =>
              newRecord(fact, ruleScope(grown), at.toISOString(), 'joined'),
            );
            const added = await insertRecords(
              tx,
              session.id,
              inclusions.map((i) => i.record),
            );
            const joined = inclusions.filter((i) => added.has(i.record.workerId));
            await insertStatusEvents(
              tx,
              session.id,
              joined.flatMap((i) => (i.change ? [i.change] : [])),
            );
            return { session: grown, touched: joined.map((i) => i.record) };
          },
        );
        if (committed) await send(session.siteId, session.id, committed);
        const [after] = await db
          .select()
          .from(evacuationSessions)
          .where(eq(evacuationSessions.id, session.id));
        return evacuationOf(db, after);
      });
      void deps.soundAlarms(request.siteId, sessionId, alarmed, 'evacuate');
      return evacuation;
    },

    async redirect(principal, request) {
      await allowed(principal, request.siteId);
      const { unsafeZoneId, redirectZoneId } = request;
      if (unsafeZoneId === redirectZoneId)
        throw unprocessable(
          { redirectZoneId: EVACUATION_MESSAGES.sameRedirect },
          EVACUATION_MESSAGES.sameRedirect,
        );
      let redirected: HelmetFacts[] = [];
      let sessionId = '';
      const evacuation = await queued(request.siteId, async () => {
        const session = await current(request.siteId, request.evacuationSessionId);
        sessionId = session.id;
        if (!session.assemblyZoneIds.includes(unsafeZoneId))
          throw unprocessable(
            { unsafeZoneId: EVACUATION_MESSAGES.notAssembly },
            EVACUATION_MESSAGES.notAssembly,
          );
        const found = await siteFloorsAndZones(db, session.siteId, [], [redirectZoneId]);
        if (!found.zoneFloorById.has(redirectZoneId)) throw notFound('Zone');
        const at = now();
        const committed = await deps.commitEvaluation(
          session,
          null,
          at.toISOString(),
          new Set(['redirect']),
          async (tx) => {
            const [changed] = await tx
              .update(evacuationSessions)
              .set({
                assemblyZoneIds: unique([
                  ...session.assemblyZoneIds.filter((id) => id !== unsafeZoneId),
                  redirectZoneId,
                ]),
              })
              .where(eq(evacuationSessions.id, session.id))
              .returning();
            await tx.insert(evacuationScopeEvents).values({
              sessionId: session.id,
              kind: 'assemblyUnsafe',
              detail: { zoneId: unsafeZoneId, redirectZoneId },
              by: principal.id,
              at,
            });
            // Whoever is in the unsafe zone now, or was sent there by an earlier redirect, goes to the new one.
            const records = await lockRecords(tx, session.id);
            const facts = await readHelmetFacts(
              tx,
              session.siteId,
              session.startedAt.toISOString(),
              records.map((r) => r.inventoryItemId),
            );
            const inUnsafeZone = new Set(
              facts.filter((f) => f.zoneId === unsafeZoneId).map((f) => f.inventoryItemId),
            );
            const moved = records
              .filter((r) => inUnsafeZone.has(r.inventoryItemId) || r.redirectZoneId === unsafeZoneId)
              .map((r) => redirectRecord(r, redirectZoneId, at.toISOString()));
            await updateRecords(tx, session.id, moved);
            const movedHelmets = new Set(moved.map((r) => r.inventoryItemId));
            redirected = facts.filter((f) => movedHelmets.has(f.inventoryItemId));
            return { session: changed, touched: moved };
          },
        );
        if (committed) await send(session.siteId, session.id, committed);
        const [after] = await db
          .select()
          .from(evacuationSessions)
          .where(eq(evacuationSessions.id, session.id));
        return evacuationOf(db, after);
      });
      void deps.soundAlarms(request.siteId, sessionId, redirected, 'redirect', redirectZoneId);
      return evacuation;
    },
  };
}
