import { sql } from 'drizzle-orm';
import type { Executor } from '../db/executor';
import { delayCodes } from '../db/schema';

/** What a site's delays are booked against until it names its own (docs/decisions.md). */
export const DEFAULT_DELAY_CODES: readonly { code: string; name: string }[] = [
  { code: 'WEA', name: 'Weather' },
  { code: 'MAT', name: 'Material shortage' },
  { code: 'EQP', name: 'Equipment breakdown' },
  { code: 'PER', name: 'Waiting for permit' },
  { code: 'DES', name: 'Design change' },
  { code: 'OTH', name: 'Other' },
];

/** Gives a site the default delay codes when it has none yet (idempotent). */
export async function ensureDelayCodes(db: Executor, siteId: number): Promise<void> {
  await db.execute(sql`
    insert into ${delayCodes} (site_id, code, name)
    select ${siteId}, d.code, d.name
    from jsonb_to_recordset(${JSON.stringify(DEFAULT_DELAY_CODES)}::jsonb) as d(code text, name text)
    where not exists (select 1 from ${delayCodes} where ${delayCodes.siteId} = ${siteId})
    on conflict do nothing`);
}

export interface DelayCodeRow {
  id: number;
  code: string;
  name: string;
}

/** A site's delay codes (the defaults given first), by code. */
export async function siteDelayCodes(db: Executor, siteId: number): Promise<DelayCodeRow[]> {
  await ensureDelayCodes(db, siteId);
  const result = (await db.execute(sql`
    select id, code, name from ${delayCodes} where site_id = ${siteId} order by lower(code), id`)) as unknown as {
    rows: { id: number; code: string; name: string }[];
  };
  return result.rows.map((row) => ({ id: Number(row.id), code: row.code, name: row.name }));
}
