import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, startServerProcess, waitForOutput } from './helpers/serverProcess';

const READY = 'Sitewatch is running at';
/**
 * How long a start may take: migrating and seeding the demo site on the embedded database took up
 * to 90 s on a loaded two-core CI machine. This is a liveness deadline, not a measure of speed
 * (bench/ measures that).
 */
const START_DEADLINE_MS = 180_000;

async function login(port: number, email: string, password = 'sitewatch-demo') {
  return fetch(`http://127.0.0.1:${port}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
}

const onPostgresServer = process.env.SITEWATCH_TEST_DRIVER === 'pg';

// The embedded-database run is the PGlite project's; the PostgreSQL project runs the variant below.
if (!onPostgresServer) {
  describe('the server process on the embedded database', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sitewatch-start-'));
    const running: ServerProcess[] = [];
    afterAll(() => {
      for (const server of running) server.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });

    async function start(args: string[] = []) {
      const port = await freePort();
      const safetyPort = await freePort();
      const server = startServerProcess(
        { DATA_DIR: dataDir, PORT: String(port), SAFETY_PORT: String(safetyPort) },
        args,
      );
      running.push(server);
      return { server, port, safetyPort };
    }

    it(
      'migrates, seeds the demo site, prints the URL and the demo logins, and listens on both ports',
      async () => {
        const { server, port, safetyPort } = await start();
        await waitForOutput(server, READY, START_DEADLINE_MS);
        expect(server.output()).toContain('demo site seeded');
        expect(server.output()).toContain('site-admin@demo.sitewatch.dev');
        expect((await login(port, 'site-admin@demo.sitewatch.dev')).status).toBe(200);
        const safety = await fetch(`http://127.0.0.1:${safetyPort}/api/safety/health`);
        expect(safety.status).toBe(200);

        // A second server on the same data directory refuses to start.
        const second = await start();
        expect(await second.server.exited).not.toBe(0);
        expect(second.server.output()).toContain('is in use by process');

        // Change something, then kill the first server without warning.
        const token = (await (await login(port, 'site-admin@demo.sitewatch.dev')).json()).data.access_token;
        const changed = await fetch(`http://127.0.0.1:${port}/api/users/preferences`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ locale: 'ar' }),
        });
        expect(changed.status).toBe(200);
        server.child.kill('SIGKILL');
        await server.exited;

        // Restarted, it keeps the change and the session, and does not seed again.
        const again = await start();
        await waitForOutput(again.server, READY, START_DEADLINE_MS);
        expect(again.server.output()).not.toContain('demo site seeded');
        const me = await fetch(`http://127.0.0.1:${again.port}/api/user`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(me.status).toBe(200);
        expect((await me.json()).data.locale).toBe('ar');
        again.server.child.kill('SIGTERM');
        expect(await again.server.exited).toBe(0);
      },
      3 * START_DEADLINE_MS,
    );

    it(
      'skips the demo site with --no-demo',
      async () => {
        const emptyDir = mkdtempSync(join(tmpdir(), 'sitewatch-nodemo-'));
        const port = await freePort();
        const server = startServerProcess(
          { DATA_DIR: emptyDir, PORT: String(port), SAFETY_PORT: String(await freePort()) },
          ['--no-demo'],
        );
        running.push(server);
        await waitForOutput(server, READY, START_DEADLINE_MS);
        expect(server.output()).not.toContain('Demo logins');
        expect((await login(port, 'site-admin@demo.sitewatch.dev')).status).toBe(401);
        server.child.kill('SIGTERM');
        await server.exited;
        rmSync(emptyDir, { recursive: true, force: true });
      },
      START_DEADLINE_MS,
    );
  });
}

// On the PostgreSQL server run, the same process runs with DATABASE_URL on a fresh database.
if (process.env.SITEWATCH_TEST_DRIVER === 'pg' && process.env.TEST_DATABASE_URL) {
  describe('the server process on a PostgreSQL server (DATABASE_URL)', () => {
    it(
      'migrates, seeds once and keeps data across a restart',
      async () => {
        const adminUrl = process.env.TEST_DATABASE_URL!;
        const name = `sitewatch_start_${process.pid}`;
        const pg = (await import('pg')).default;
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${name}`);
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        const dataDir = mkdtempSync(join(tmpdir(), 'sitewatch-pg-'));
        try {
          const env = async () => ({
            DATABASE_URL: url.toString(),
            DATA_DIR: dataDir,
            PORT: String(await freePort()),
            SAFETY_PORT: String(await freePort()),
          });
          const firstEnv = await env();
          const first = startServerProcess(firstEnv);
          await waitForOutput(first, READY, START_DEADLINE_MS);
          expect(first.output()).toContain('database: pg, demo site seeded');
          const token = (await (await login(Number(firstEnv.PORT), 'client-admin@demo.sitewatch.dev')).json())
            .data.access_token;
          first.child.kill('SIGKILL');
          await first.exited;

          const secondEnv = await env();
          const second = startServerProcess(secondEnv);
          await waitForOutput(second, READY, START_DEADLINE_MS);
          expect(second.output()).not.toContain('demo site seeded');
          const me = await fetch(`http://127.0.0.1:${secondEnv.PORT}/api/user`, {
            headers: { authorization: `Bearer ${token}` },
          });
          expect(me.status).toBe(200);
          second.child.kill('SIGTERM');
          expect(await second.exited).toBe(0);
        } finally {
          await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await admin.end();
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
      3 * START_DEADLINE_MS,
    );
  });
}
