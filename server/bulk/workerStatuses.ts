import { sql } from 'drizzle-orm';
import { DEFAULT_WORKER_STATUSES } from '../../src/domain/workerStatus';
import type { Executor } from '../db/executor';
import { workerStatuses } from '../db/schema';

/** Gives a site the default worker statuses when it has none yet (idempotent). */
export async function ensureWorkerStatuses(db: Executor, siteId: number): Promise<void> {
  await db.execute(sql`
    insert into ${workerStatuses} (site_id, name)
    select ${siteId}, name from unnest(${`{${DEFAULT_WORKER_STATUSES.map((name) => `"${name}"`).join(',')}}`}::text[]) as name
    where not exists (select 1 from ${workerStatuses} where ${workerStatuses.siteId} = ${siteId})
    on conflict do nothing`);
}
