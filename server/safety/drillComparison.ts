import { and, desc, eq, isNotNull } from 'drizzle-orm';
import {
  DRILL_COMPARISON_LIMIT,
  type DrillComparisonEntry,
  drillFigures,
} from '../../src/domain/drillFigures';
import type { Db } from '../db/database';
import { evacuationSessions } from '../db/schema';
import { readDrillRows } from './drillRecords';

/**
 * The figures of a site's past (ended) evacuations, oldest first, for the report's comparison
 * across drills (is this site getting faster?). Only the latest DRILL_COMPARISON_LIMIT count.
 */

/**
 * A session's rows stop changing once it has ended, but for a helmet confirming its alarm late:
 * figures of sessions ended more than an hour ago are kept, so that opening one report does not
 * re-read fifty sessions' status changes every time.
 */
const SETTLED_AFTER_MS = 60 * 60 * 1000;
const CACHE_SIZE = 1000;
const settledFigures = new Map<string, DrillComparisonEntry>();

function remember(entry: DrillComparisonEntry): void {
  if (settledFigures.size >= CACHE_SIZE) {
    const oldest = settledFigures.keys().next().value;
    if (oldest !== undefined) settledFigures.delete(oldest);
  }
  settledFigures.set(entry.evacuationSessionId, entry);
}

export async function readDrillComparison(
  db: Db,
  siteId: number,
  now = Date.now(),
): Promise<DrillComparisonEntry[]> {
  const sessions = await db
    .select({
      id: evacuationSessions.id,
      startedAt: evacuationSessions.startedAt,
      endedAt: evacuationSessions.endedAt,
      evacuationFloorIds: evacuationSessions.evacuationFloorIds,
    })
    .from(evacuationSessions)
    .where(and(eq(evacuationSessions.siteId, siteId), isNotNull(evacuationSessions.endedAt)))
    .orderBy(desc(evacuationSessions.startedAt), desc(evacuationSessions.id))
    .limit(DRILL_COMPARISON_LIMIT);
  const toRead = sessions.filter((s) => !settledFigures.has(s.id)).map((s) => s.id);
  const rows = await readDrillRows(db, toRead);
  return sessions.reverse().map((session) => {
    const known = settledFigures.get(session.id);
    if (known) return known;
    const { records, events, roll } = rows.get(session.id) ?? { records: [], events: [], roll: undefined };
    const startedAt = session.startedAt.toISOString();
    const endedAt = session.endedAt?.toISOString() ?? null;
    const entry: DrillComparisonEntry = {
      evacuationSessionId: session.id,
      startedAt,
      endedAt,
      figures: drillFigures(
        { startedAt, endedAt, evacuationFloorsIds: session.evacuationFloorIds },
        records,
        events,
        roll,
      ),
    };
    if (session.endedAt && now - session.endedAt.getTime() > SETTLED_AFTER_MS) remember(entry);
    return entry;
  });
}
