import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSafetyApp, type SafetyLive, startLive } from '../../server/safety/safetyApp';
import { freePort, type ServerProcess, startServerProcess, waitForOutput } from './helpers/serverProcess';
import { startTestApp, type TestApp } from './helpers/testApp';

const CONSOLE = 'http://sitewatch.test';
const EVIL = 'http://evil.test';

/** A Content-Security-Policy header as directive → sources. */
function policyOf(headers: Record<string, unknown>): Record<string, string[]> {
  return Object.fromEntries(
    String(headers['content-security-policy'])
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );
}

/** The headers helmet sets on every reply, whichever listener. */
function expectSecurityHeaders(headers: Record<string, unknown>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(headers['strict-transport-security']).toMatch(/max-age=\d+/);
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-powered-by']).toBeUndefined();
}

describe('security headers and cross-origin rules', () => {
  let t: TestApp;
  let safety: { app: FastifyInstance; live: SafetyLive; url: string };

  beforeAll(async () => {
    t = await startTestApp({ publicUrl: CONSOLE, safetyPort: 8123 });
    // As main.ts starts it: with the server's configuration, which names the console's origin.
    const app = await buildSafetyApp({ db: t.db, config: t.config });
    const live = await startLive({ app, db: t.db, config: t.config });
    await app.listen({ port: 0, host: '127.0.0.1' });
    safety = { app, live, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
  });
  afterAll(async () => {
    await safety?.live.close();
    await safety?.app.close();
    await t?.close();
  });

  it('gives the console a policy without inline or evaluated script, reaching only the safety listener', async () => {
    const reply = await t.app.inject({
      method: 'GET',
      url: '/api/live-settings',
      headers: { host: 'site.example:3000' },
    });
    expectSecurityHeaders(reply.headers);
    const policy = policyOf(reply.headers);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['base-uri']).toEqual(["'self'"]);
    expect(policy['img-src']).toEqual(["'self'", 'data:', 'blob:']);
    expect(policy['worker-src']).toEqual(["'self'", 'blob:']);
    // Frames: the Power BI reports of Analytics, over https, and nothing else (not even this origin).
    expect(policy['frame-src']).toEqual([
      'https://app.powerbi.com',
      'https://app.powerbigov.us',
      'https://app.high.powerbigov.us',
      'https://app.mil.powerbigov.us',
      'https://app.powerbi.cn',
    ]);
    expect(policy['connect-src']).toEqual([
      "'self'",
      'http://site.example:8123',
      'https://site.example:8123',
      'ws://site.example:8123',
      'wss://site.example:8123',
    ]);
    expect(policy['style-src']).toEqual(["'self'"]);
    expect(policy['style-src-attr']).toEqual(["'unsafe-inline'"]);
    expect(String(reply.headers['content-security-policy'])).not.toContain('unsafe-eval');

    // A Host header that is no host name cannot write directives of its own.
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/live-settings',
      headers: { host: "x; script-src 'unsafe-inline'" },
    });
    expect(policyOf(forged.headers)['script-src']).toEqual(["'self'"]);
    expect(policyOf(forged.headers)['connect-src']).toEqual(["'self'"]);
  });

  it('answers only the console origin across origins on the safety listener, with the same headers', async () => {
    const health = (origin: string) => fetch(`${safety.url}/api/safety/health`, { headers: { origin } });
    const fromConsole = await health(CONSOLE);
    expect(fromConsole.status).toBe(200);
    expect(fromConsole.headers.get('access-control-allow-origin')).toBe(CONSOLE);
    expectSecurityHeaders(Object.fromEntries(fromConsole.headers));
    expect(fromConsole.headers.get('content-security-policy')).toContain("default-src 'none'");

    const fromEvil = await health(EVIL);
    expect(fromEvil.headers.get('access-control-allow-origin')).toBeNull();
    expectSecurityHeaders(Object.fromEntries(fromEvil.headers));

    const preflight = (origin: string) =>
      fetch(`${safety.url}/api/safety/getworkers`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
    const consolePreflight = await preflight(CONSOLE);
    expect(consolePreflight.status).toBe(204);
    expect(consolePreflight.headers.get('access-control-allow-origin')).toBe(CONSOLE);
    expect(consolePreflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const evilPreflight = await preflight(EVIL);
    expect(evilPreflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(evilPreflight.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('lets only the console origin read the live socket over long-polling', async () => {
    const handshake = (origin: string) =>
      fetch(`${safety.url}/socket.io/?EIO=4&transport=polling`, { headers: { origin } });
    const fromConsole = await handshake(CONSOLE);
    expect(fromConsole.status).toBe(200);
    expect(fromConsole.headers.get('access-control-allow-origin')).toBe(CONSOLE);
    const fromEvil = await handshake(EVIL);
    expect(fromEvil.headers.get('access-control-allow-origin')).toBeNull();
  });
});

/** Whether something accepts a TCP connection at address:port. */
function accepts(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

// The process runs on the embedded database; the PostgreSQL project has no variant to add here.
if (process.env.SITEWATCH_TEST_DRIVER !== 'pg') {
  describe('the server process', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sitewatch-host-'));
    let server: ServerProcess | undefined;
    afterAll(async () => {
      if (server && server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('binds both HTTP listeners to 127.0.0.1 unless HOST says otherwise', async () => {
      const port = await freePort();
      const safetyPort = await freePort();
      server = startServerProcess(
        { DATA_DIR: dataDir, PORT: String(port), SAFETY_PORT: String(safetyPort), HOST: '' },
        ['--no-demo'],
      );
      await waitForOutput(server, 'Sitewatch is running at');
      for (const listener of [port, safetyPort]) {
        expect(await accepts('127.0.0.1', listener)).toBe(true);
        // Bound to every address, 127.0.0.2 (also loopback) would answer too.
        expect(await accepts('127.0.0.2', listener)).toBe(false);
      }
    }, 90_000);
  });
}
