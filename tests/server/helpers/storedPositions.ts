import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { positionKey } from './devicePublishers';

/** What a kill loop ends with: the benchmark prints it, the test asserts on it. */
export interface DurabilityCount {
  /** Positions whose message the broker acknowledged. */
  acknowledged: number;
  /** Rows of the run's positions in the database (unacknowledged ones that got in count too). */
  stored: number;
  /** Rows beyond the first for one (helmet, ts). */
  storedTwice: number;
  /** Acknowledged positions with no row. */
  lost: number;
  /** A few lost positions, to look for in the server's log. */
  lostExamples: string[];
}

type PositionRow = { tag: string; ts: Date | string };

const POSITIONS_OF_RUN = `
  select i.wnt_inventory_id as tag, p.ts
  from positions p join inventory_items i on i.id = p.inventory_item_id
  where p.site_id = $1 and p.ts >= $2 and p.ts < $3`;

/** Reads the run's positions from a PostgreSQL server. */
export async function positionsOnServer(
  url: string,
  siteId: number,
  range: { fromMs: number; toMs: number },
): Promise<PositionRow[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const params = [siteId, new Date(range.fromMs), new Date(range.toMs)];
    return (await client.query<PositionRow>(POSITIONS_OF_RUN, params)).rows;
  } finally {
    await client.end();
  }
}

/** Reads the run's positions from the embedded database of a stopped server's DATA_DIR. */
export async function positionsInDataDir(
  dataDir: string,
  siteId: number,
  range: { fromMs: number; toMs: number },
): Promise<PositionRow[]> {
  const database = new PGlite(join(dataDir, 'pg'));
  try {
    const params = [siteId, new Date(range.fromMs).toISOString(), new Date(range.toMs).toISOString()];
    return (await database.query<PositionRow>(POSITIONS_OF_RUN, params)).rows;
  } finally {
    await database.close();
  }
}

export function countDurability(
  acknowledged: ReadonlySet<string>,
  rows: readonly PositionRow[],
): DurabilityCount {
  const timesStored = new Map<string, number>();
  for (const row of rows) {
    const key = positionKey(row.tag, new Date(row.ts).toISOString());
    timesStored.set(key, (timesStored.get(key) ?? 0) + 1);
  }
  let storedTwice = 0;
  for (const times of timesStored.values()) storedTwice += times - 1;
  const lost = [...acknowledged].filter((key) => !timesStored.has(key));
  return {
    acknowledged: acknowledged.size,
    stored: rows.length,
    storedTwice,
    lost: lost.length,
    lostExamples: lost.slice(0, 5),
  };
}
