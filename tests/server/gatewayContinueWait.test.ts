import { setTimeout as delay } from 'node:timers/promises';
import type { ProgressResult } from '@cubejs-client/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayExecutor, readOnlyExecutor } from '../../server/gateway/execute';
import { registerGateway } from '../../server/gateway/gatewayRoutes';
import { createListener } from '../../server/http/layeredApp';
import { createGatewayClient } from '../../src/api/gateway';
import { GATEWAY_CONTINUE_WAIT_MS, GATEWAY_HOLD_MS } from '../../src/domain/analytics';
import { cubeClient, type GatewayWorld, gatewayUrl, seedGatewayWorld } from './helpers/gatewayFixture';
import { seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';

/**
 * A query slower than the gateway's hold (GATEWAY_HOLD_MS): the request answers Cube's
 * "Continue wait", the stock client asks again, the retry finds the same running job, and the
 * statement runs once. The slowness is the test's: the gateway listener here is the production
 * one with its executor wrapped (a delay, a counter), which only registerGateway's options reach.
 */
const SLOW_BY_MS = GATEWAY_HOLD_MS + 1_000;

let t: TestApp;
let world: GatewayWorld;
let gateway: FastifyInstance;
let apiUrl: string;
let token: string;
const executions: string[] = [];

const slowExecutor: GatewayExecutor = async (db, statement) => {
  executions.push(new Date().toISOString());
  await delay(SLOW_BY_MS);
  return readOnlyExecutor(db, statement);
};

beforeAll(async () => {
  t = await startTestApp();
  world = await seedGatewayWorld(t.db, await seedOtherTenant(t.db));
  token = await t.loginAs('group-of-sites-admin');
  gateway = createListener({});
  await registerGateway(gateway, { db: t.db, config: t.config }, { executor: slowExecutor });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = gatewayUrl(gateway.server.address());
});

afterAll(async () => {
  await gateway?.close();
  await t.close();
});

describe('a query longer than the hold', () => {
  it('gets "Continue wait", then one result from one execution, for the stock and the console client alike', async () => {
    const query = {
      measures: ['Presence.workerSeconds'],
      dimensions: ['Presence.zoneName'],
      filters: [{ member: 'Presence.floorId', operator: 'equals' as const, values: [String(world.floorId)] }],
      order: { 'Presence.zoneName': 'asc' as const },
    };
    const progress: ProgressResult[] = [];
    const started = Date.now();
    const [stock, console] = await Promise.all([
      cubeClient(token, apiUrl).load(query, { progressCallback: (result) => progress.push(result) }),
      // The console's client asks the same query at the same time: it waits on the same job.
      createGatewayClient({ getToken: () => token, baseUrl: apiUrl }).load(query),
    ]);
    const elapsed = Date.now() - started;

    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0].stage()).toBe('Executing query');
    expect(progress[0].timeElapsed()).toBeGreaterThanOrEqual(GATEWAY_HOLD_MS - 100);
    const expected = [
      { 'Presence.zoneName': 'GW Zone A', 'Presence.workerSeconds': 330 },
      { 'Presence.zoneName': 'GW Zone B', 'Presence.workerSeconds': 50 },
      { 'Presence.zoneName': null, 'Presence.workerSeconds': 45 },
    ];
    expect(stock.rawData()).toEqual(expected);
    expect(console.data).toEqual(expected);
    expect(executions).toHaveLength(1);
    // The console client slept GATEWAY_CONTINUE_WAIT_MS after its "Continue wait" before asking again.
    expect(elapsed).toBeGreaterThanOrEqual(GATEWAY_HOLD_MS + GATEWAY_CONTINUE_WAIT_MS);

    // A retry within the keep window is the finished job's result, not a new run.
    const again = await cubeClient(token, apiUrl).load(query);
    expect(again.rawData()).toEqual(expected);
    expect(executions).toHaveLength(1);
  });
});
