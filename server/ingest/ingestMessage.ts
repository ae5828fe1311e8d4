import {
  parseHelmetEvents,
  parseNodes,
  parsePositions,
  type Rejection,
} from '../../src/domain/ingestValidation';
import type { TopicKind } from '../../src/domain/live';
import type { Db } from '../db/database';
import { writeHelmetEvents } from './helmetEventWriter';
import { writeNodeDiagnostics } from './nodeWriter';
import { writePositions } from './positionWriter';
import type { CommittedIngest } from './publishChanges';

/** One payload's outcome once committed, with what the fan-out has to hear about it. */
export interface IngestOutcome {
  accepted: number;
  rejections: Rejection[];
  committed: CommittedIngest;
}

/**
 * Validates one payload of a topic kind and stores what is valid in one transaction. Throws only
 * when the database does: bad input is always an outcome, never an exception.
 */
export async function ingestPayload(
  db: Db,
  siteId: number,
  kind: TopicKind,
  payload: Uint8Array | string,
  now: Date,
): Promise<IngestOutcome> {
  switch (kind) {
    case 'positions': {
      const parsed = parsePositions(payload, now);
      const result = await writePositions(db, siteId, parsed.accepted);
      return {
        accepted: result.accepted,
        rejections: [...parsed.rejected, ...result.rejections],
        committed: result,
      };
    }
    case 'nodes': {
      const parsed = parseNodes(payload, now);
      const result = await writeNodeDiagnostics(db, siteId, parsed.accepted);
      return {
        accepted: result.accepted,
        rejections: [...parsed.rejected, ...result.rejections],
        committed: {},
      };
    }
    case 'events': {
      const parsed = parseHelmetEvents(payload, now);
      const result = await writeHelmetEvents(db, siteId, parsed.accepted);
      return {
        accepted: result.accepted,
        rejections: [...parsed.rejected, ...result.rejections],
        committed: result,
      };
    }
  }
}
