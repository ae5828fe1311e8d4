import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE } from '../../server/db/demoSeed';
import { bulkUploads, crews, sites, subcontractors, workerRoles, workshifts } from '../../server/db/schema';
import { bulkKind } from '../../src/domain/bulkKinds';
import { kindWorkbook } from './helpers/bulkUploadFixture';
import { startTestApp, type TestApp } from './helpers/testApp';
import { type WorkerListValues, workersWorkbook } from './helpers/workerWorkbooks';

const WORKERS = bulkKind('workers');
const ROWS = 60_000;

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`Gave up after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Spec §8 USER_CANCELLED: a user who closes the upload (the browser aborts the request) while
 * the server is still checking the rows stops that work; nothing of the upload is kept.
 */
describe('cancelling a running upload', () => {
  let t: TestApp;
  let siteId: number;
  let admin: string;
  let baseUrl: string;
  let bytes: Buffer;

  beforeAll(async () => {
    t = await startTestApp();
    [{ id: siteId }] = await t.db.select({ id: sites.id }).from(sites).where(eq(sites.name, DEMO_SITE));
    admin = await t.loginAs('group-of-sites-admin');
    const names = async (
      table: typeof workerRoles | typeof subcontractors | typeof crews | typeof workshifts,
    ) =>
      (await t.db.select({ name: table.name }).from(table).where(eq(table.siteId, siteId))).map(
        (row) => row.name,
      );
    const lists: WorkerListValues = {
      roles: await names(workerRoles),
      subcontractors: await names(subcontractors),
      crews: await names(crews),
      shifts: await names(workshifts),
    };
    bytes = await workersWorkbook(ROWS, lists, 'CANCEL');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(() => t.close());

  const counts = async () => {
    const result = (await t.db.execute(
      sql`select (select count(*) from bulk_uploads)::int as uploads,
                 (select count(*) from bulk_upload_rows)::int as upload_rows,
                 (select count(*) from workers)::int as workers`,
    )) as unknown as { rows: { uploads: number; upload_rows: number; workers: number }[] };
    return result.rows[0];
  };

  const upload = (file: Buffer, uploadId: string, signal?: AbortSignal) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)]), 'workers.xlsx');
    return fetch(`${baseUrl}/bulk/api/sites/${siteId}/${WORKERS.bulkPath}/${uploadId}`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${admin}` },
      signal,
    });
  };

  it('stops checking rows when the client aborts, keeps nothing, and serves the next request', {
    timeout: 90_000,
  }, async () => {
    const before = await counts();
    const uploadId = randomUUID();
    const controller = new AbortController();
    const request = upload(bytes, uploadId, controller.signal);
    request.catch(() => {});

    // The whole body has arrived once the server has recorded the upload as validating.
    await waitFor('the upload to be validating', 60_000, async () => {
      const [row] = await t.db
        .select({ status: bulkUploads.status })
        .from(bulkUploads)
        .where(eq(bulkUploads.id, uploadId));
      return row?.status === 'validating' ? row : null;
    });
    controller.abort();
    await expect(request).rejects.toThrow(/abort/i);
    const abortedAt = Date.now();

    await waitFor('the upload to be dropped', 5_000, async () => {
      const [row] = await t.db
        .select({ id: bulkUploads.id })
        .from(bulkUploads)
        .where(eq(bulkUploads.id, uploadId));
      return row === undefined ? true : null;
    });
    console.info(`cancelled upload of ${ROWS} rows dropped ${Date.now() - abortedAt} ms after the abort`);
    // Nothing left behind: no draft, no draft rows, no workers; and nothing appears later.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await counts()).toEqual(before);

    const next = await upload(
      await kindWorkbook(WORKERS, [{ name: 'After Cancel', worker_tag_id: 'AFTER-CANCEL-1' }]),
      randomUUID(),
    );
    expect(next.status).toBe(200);
    expect(await next.json()).toMatchObject({ data: { status: 'draft', row_count: 1, error_row_count: 0 } });
  });
});
