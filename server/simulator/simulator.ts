import { randomBytes } from 'node:crypto';
import { connectAsync, type MqttClient } from 'mqtt';
import {
  type HelmetEventMessage,
  type NodeMessage,
  type PositionMessage,
  type TopicKind,
  topicFor,
} from '../../src/domain/live';
import { between, type Random, seededRandom } from '../../src/domain/seededRandom';
import { localTime, shiftStateAtLocal } from '../../src/domain/workshiftClock';
import type { Db } from '../db/database';
import { newWalker, stepWalker, type Walker } from './helmetWalker';
import { loadSiteModel, type SimNode, type SiteModel } from './siteModel';

/** What the simulator logs through; a Fastify/pino logger fits. */
export interface SimulatorLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface SimulatorOptions {
  db: Db;
  brokerUrl: string;
  topicRoot: string;
  siteId: number;
  logger: SimulatorLogger;
  /** The time stamped on messages and read against work shifts; the wall clock by default. */
  clock?: () => Date;
  /** Fixes the walks, silences and button presses; random by default. */
  seed?: number;
  /** Milliseconds between ticks (one position per helmet per tick); 1000 by default. */
  tickMs?: number;
  /** Per helmet and tick: the chance to go silent for a while, and to press the button (tests raise them). */
  chances?: { silence: number; acknowledge: number };
}

export interface Simulator {
  close(): Promise<void>;
}

/** Node diagnostics every this many ticks (about every 10 s). */
const NODE_EVERY_TICKS = 10;
/** Helmets, shifts and devices are read again this often (new workers, a new day). */
const RELOAD_EVERY_TICKS = 300;
/** Per helmet and tick: a few helmets at a time drop out of radio range for a while. */
const SILENCE_CHANCE = 1 / 4000;
const SILENCE_TICKS = { min: 60, max: 180 };
/** Per working helmet and tick: the acknowledge button is pressed rarely. */
const ACKNOWLEDGE_CHANCE = 1 / 30_000;

interface HelmetState {
  walker: Walker;
  /** Ticks left without a message. */
  silentTicks: number;
}

/**
 * A site's radio network, simulated for the demo: every tick each network's gateway publishes
 * one array of positions of the helmets worn by workers on shift (walking between zones while
 * working, standing still and inactive on a break, silent off shift), anchors and sinks report
 * diagnostics about every ten ticks, and now and then a helmet goes silent for a few minutes or
 * its button is pressed. Messages go out with QoS 1, as a gateway's would.
 */
export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const { db, siteId, logger } = options;
  const clock = options.clock ?? (() => new Date());
  const tickMs = options.tickMs ?? 1000;
  const chances = options.chances ?? { silence: SILENCE_CHANCE, acknowledge: ACKNOWLEDGE_CHANCE };
  const random: Random = seededRandom(options.seed ?? randomBytes(4).readUInt32LE());

  let model: SiteModel = await loadSiteModel(db, siteId, clock());
  const client: MqttClient = await connectAsync(options.brokerUrl, {
    clientId: `sitewatch-simulator-${siteId}-${randomBytes(3).toString('hex')}`,
    reconnectPeriod: 2000,
  });
  const helmets = new Map<string, HelmetState>();
  let ticks = 0;
  let reloading = false;
  let closed = false;

  const publish = (kind: TopicKind, message: unknown) => {
    client
      .publishAsync(topicFor(siteId, kind, options.topicRoot), JSON.stringify(message), { qos: 1 })
      .catch((error: Error) => {
        if (!closed) logger.warn(`simulator: publish on ${kind} failed: ${error.message}`);
      });
  };

  const reload = () => {
    if (reloading) return;
    reloading = true;
    loadSiteModel(db, siteId, clock())
      .then((next) => {
        model = next;
      })
      .catch((error: Error) => logger.warn(`simulator: reading site ${siteId} failed: ${error.message}`))
      .finally(() => {
        reloading = false;
      });
  };

  const tick = () => {
    const now = clock();
    const ts = now.toISOString();
    const local = localTime(now, model.timezone);
    const byNetwork = new Map<number | null, PositionMessage[]>();
    const floors = model.floors;
    for (const helmet of floors.length > 0 ? model.helmets : []) {
      const shiftState = helmet.shift ? shiftStateAtLocal(helmet.shift, local) : 'off';
      if (shiftState === 'off') {
        helmets.delete(helmet.tag);
        continue;
      }
      let state = helmets.get(helmet.tag);
      if (!state) {
        state = { walker: newWalker(random, floors[Math.floor(random() * floors.length)]), silentTicks: 0 };
        helmets.set(helmet.tag, state);
      }
      const working = shiftState === 'working';
      if (working) state.walker = stepWalker(random, state.walker, tickMs / 1000, floors);
      if (state.silentTicks > 0) {
        state.silentTicks -= 1;
        continue;
      }
      if (random() < chances.silence) {
        state.silentTicks = Math.round(between(random, SILENCE_TICKS.min, SILENCE_TICKS.max));
        continue;
      }
      const { lat, long } = state.walker.floor.transform.toGeo(state.walker.at);
      const batch = byNetwork.get(helmet.networkId) ?? [];
      batch.push({
        tag: helmet.tag,
        ts,
        lat,
        long,
        floorId: state.walker.floor.id,
        online: true,
        active: working,
      });
      byNetwork.set(helmet.networkId, batch);
      if (working && random() < chances.acknowledge) {
        const event: HelmetEventMessage = { tag: helmet.tag, ts, type: 'acknowledge' };
        publish('events', event);
      }
    }
    for (const batch of byNetwork.values()) publish('positions', batch);
    if (ticks % NODE_EVERY_TICKS === 0)
      for (const node of model.nodes) publish('nodes', diagnostics(random, node, ts));
    ticks += 1;
    if (ticks % RELOAD_EVERY_TICKS === 0) reload();
  };

  const safeTick = () => {
    try {
      tick();
    } catch (error) {
      logger.error(`simulator: tick failed: ${(error as Error).message}`);
    }
  };
  safeTick();
  const timer = setInterval(safeTick, tickMs);
  logger.info(
    `simulator: site ${siteId}, ${model.helmets.length} helmets, ${model.nodes.length} nodes, ${model.floors.length} floors`,
  );

  return {
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await client.endAsync();
    },
  };
}

/** One anchor's or sink's health report: plausible, slowly varying figures. */
function diagnostics(random: Random, node: SimNode, ts: string): NodeMessage {
  return {
    networkId: node.networkId,
    nodeId: node.nodeId,
    type: node.type,
    bufferUsage: Math.round(between(random, 2, 35)),
    linkQuality: Math.round(between(random, 70, 100)),
    batteryVoltage: Number(
      (node.type === 'sink' ? between(random, 4.9, 5.1) : between(random, 3.5, 4.2)).toFixed(2),
    ),
    displacementError: Number(between(random, 0, 0.4).toFixed(2)),
    ts,
    lat: node.lat,
    long: node.long,
  };
}
