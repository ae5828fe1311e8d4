import { randomBytes } from 'node:crypto';
import { connectAsync, type MqttClient } from 'mqtt';
import { parseHelmetCommand } from '../../src/domain/helmetCommands';
import {
  type HelmetEventMessage,
  type PositionMessage,
  type TopicKind,
  topicFor,
} from '../../src/domain/live';
import { between, pick, type Random, seededRandom } from '../../src/domain/seededRandom';
import { localTime, shiftStateAtLocal } from '../../src/domain/workshiftClock';
import type { Db } from '../db/database';
import { commandTopic } from '../mqtt/topicAccess';
import { createAlarmResponder } from './alarmResponder';
import {
  type Evacuee,
  evacueeAt,
  evacueeOf,
  firstTickInZone,
  newWalker,
  stepWalker,
  type Walker,
} from './helmetWalker';
import { floorMates, nodeReport, nodeStory } from './nodeBehaviour';
import { backfillNodeHistory, type NodeHistoryBackfill } from './nodeHistoryBackfill';
import type { DeviceLogin } from './simulatorToken';
import { loadSiteModel, type SiteModel } from './siteModel';

/** What the simulator logs through; a Fastify/pino logger fits. */
export interface SimulatorLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface SimulatorOptions {
  db: Db;
  brokerUrl: string;
  /** A device token of the site (see simulatorToken.ts); none for a broker without authentication. */
  login?: DeviceLogin;
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
  /**
   * Writes the nodes' last days first (nodeHistoryBackfill.ts), in the background; the nodes
   * report live once it is done. Off by default: only the demo server asks for it.
   */
  backfillNodeHistory?: boolean;
}

/** What the safety demo's drill asks of the simulator. */
export interface EvacuationPlan {
  /** Floors whose workers walk out. */
  floorIds: readonly number[];
  /** Where they walk to: each worker to the nearest of these. */
  assemblyZoneIds: readonly number[];
}

/** Who does what in a scripted evacuation (by helmet tag). */
export interface EvacuationScript {
  evacuees: string[];
  /** Press acknowledge on the way. */
  acknowledging: string[];
  /** Goes silent before reaching safety and stays so until the evacuation ends; null with nobody to walk. */
  silenced: string | null;
}

export interface Simulator {
  close(): Promise<void>;
  /** The node history written at start: null without backfillNodeHistory, or when it failed. */
  nodeHistory: Promise<NodeHistoryBackfill | null>;
  /**
   * Walks the helmets heard on the plan's floors to the nearest assembly zone in 30–60 ticks;
   * about a third press acknowledge on the way and one goes silent before it gets there.
   */
  evacuate(plan: EvacuationPlan): EvacuationScript;
  /** Back to normal: everyone goes back to work from the assembly point, the silent helmet too. */
  endEvacuation(): void;
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
/** An evacuee reaches the assembly zone this many ticks (seconds) after the alarm. */
const ARRIVAL_TICKS = { min: 30, max: 60 };
/** Share of evacuees who press acknowledge on the way. */
const ACKNOWLEDGING_SHARE = 1 / 3;
/** The silenced helmet is heard at least this many ticks into the walk, so it is seen leaving. */
const MIN_TICKS_BEFORE_SILENCE = 3;
/** Seconds at the assembly point after the all-clear before walking back to work. */
const DWELL_AFTER_EVACUATION = { min: 5, max: 30 };

interface EvacuationWalk {
  evacuee: Evacuee;
  startTick: number;
  acknowledgeTick: number | null;
  /** From this tick of the walk on, the helmet publishes nothing. */
  silentFromTick: number | null;
}

interface HelmetState {
  walker: Walker;
  /** Ticks left without a message. */
  silentTicks: number;
  /** Set while a scripted evacuation walks this helmet out. */
  evacuation?: EvacuationWalk;
}

/**
 * A site's radio network, simulated for the demo: every tick each network's gateway publishes
 * one array of positions of the helmets worn by workers on shift (walking between zones while
 * working, standing still and inactive on a break, silent off shift), anchors and sinks report
 * diagnostics with their radio neighbours about every ten ticks (nodeBehaviour.ts: draining
 * batteries, a knocked anchor, a filling buffer, a silent anchor), and now and then a helmet goes
 * silent for a few minutes or its button is pressed. Messages go out with QoS 1, as a gateway's would.
 */
export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const { db, siteId, logger } = options;
  const clock = options.clock ?? (() => new Date());
  const tickMs = options.tickMs ?? 1000;
  const chances = options.chances ?? { silence: SILENCE_CHANCE, acknowledge: ACKNOWLEDGE_CHANCE };
  const seed = options.seed ?? randomBytes(4).readUInt32LE();
  const random: Random = seededRandom(seed);

  let model: SiteModel = await loadSiteModel(db, siteId, clock());
  const nodeSceneOf = (site: SiteModel) => ({ story: nodeStory(site), mates: floorMates(site.nodes) });
  let nodeScene = nodeSceneOf(model);
  const client: MqttClient = await connectAsync(options.brokerUrl, {
    clientId: `sitewatch-simulator-${siteId}-${randomBytes(3).toString('hex')}`,
    reconnectPeriod: 2000,
    username: options.login?.username,
    password: options.login?.password,
  });
  const helmets = new Map<string, HelmetState>();
  let ticks = 0;
  // Live node reports begin where the history written at start ends, so its story reads in order.
  let nodesLive = !options.backfillNodeHistory;
  let reloading = false;
  let closed = false;

  const publish = (kind: TopicKind, message: unknown) => {
    client
      .publishAsync(topicFor(siteId, kind, options.topicRoot), JSON.stringify(message), { qos: 1 })
      .catch((error: Error) => {
        if (!closed) logger.warn(`simulator: publish on ${kind} failed: ${error.message}`);
      });
  };

  /** Heard by the gateways now: on shift, not out of range, not the evacuation's silenced helmet. */
  const inRange = (tag: string) => {
    const state = helmets.get(tag);
    if (!state || state.silentTicks > 0) return false;
    const walk = state.evacuation;
    return !(walk && walk.silentFromTick !== null && ticks - walk.startTick >= walk.silentFromTick);
  };
  const alarms = createAlarmResponder({
    seed,
    clock,
    inRange,
    helmetTags: () => helmets.keys(),
    publish: (events) => publish('events', events),
    retryMs: tickMs,
  });
  client.on('message', (topic, payload) => {
    const command = topic === commandTopic(siteId, options.topicRoot) ? parseHelmetCommand(payload) : null;
    if (command) alarms.handle(command);
  });
  // As a helmet would, every simulated helmet hears its site's commands (one subscription for all).
  client
    .subscribeAsync(commandTopic(siteId, options.topicRoot), { qos: 1 })
    .then((granted) => {
      if (granted.some((g) => g.qos === 128))
        logger.warn(`simulator: the broker refused the commands of site ${siteId}; alarms go unconfirmed`);
    })
    .catch((error: Error) => logger.warn(`simulator: subscribing to commands failed: ${error.message}`));

  const reload = () => {
    if (reloading) return;
    reloading = true;
    loadSiteModel(db, siteId, clock())
      .then((next) => {
        model = next;
        nodeScene = nodeSceneOf(next);
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
      let state = helmets.get(helmet.tag);
      if (state?.evacuation) {
        // Nobody clocks off during an evacuation; a helmet out of range walks out unheard.
        const position = evacuationStep(helmet.tag, state, state.evacuation, ts);
        const outOfRange = state.silentTicks > 0;
        if (outOfRange) state.silentTicks -= 1;
        if (position && !outOfRange) {
          const batch = byNetwork.get(helmet.networkId) ?? [];
          batch.push({ tag: helmet.tag, ...position });
          byNetwork.set(helmet.networkId, batch);
        }
        continue;
      }
      if (shiftState === 'off') {
        helmets.delete(helmet.tag);
        continue;
      }
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
    if (nodesLive && ticks % NODE_EVERY_TICKS === 0)
      for (const node of model.nodes) {
        const report = nodeReport(
          node,
          nodeScene.mates.get(node.nodeId) ?? [],
          now.getTime(),
          nodeScene.story,
        );
        if (report) publish('nodes', report);
      }
    ticks += 1;
    if (ticks % RELOAD_EVERY_TICKS === 0) reload();
  };

  /** One tick of an evacuee's walk: its position, or null once its helmet went silent. */
  const evacuationStep = (tag: string, state: HelmetState, walk: EvacuationWalk, ts: string) => {
    const elapsed = ticks - walk.startTick;
    state.walker = evacueeAt(walk.evacuee, elapsed);
    if (walk.silentFromTick !== null && elapsed >= walk.silentFromTick) return null;
    if (elapsed === walk.acknowledgeTick)
      publish('events', { tag, ts, type: 'acknowledge' } satisfies HelmetEventMessage);
    const { lat, long } = state.walker.floor.transform.toGeo(state.walker.at);
    return { ts, lat, long, floorId: state.walker.floor.id, online: true, active: true };
  };

  const evacuate = (plan: EvacuationPlan): EvacuationScript => {
    const zones = model.assemblyZones.filter((zone) => plan.assemblyZoneIds.includes(zone.id));
    const script: EvacuationScript = { evacuees: [], acknowledging: [], silenced: null };
    const silenceable: [string, EvacuationWalk, number][] = [];
    for (const [tag, state] of helmets) {
      // A helmet out of radio range when the alarm sounds walks out too, and is heard again on the way.
      if (!plan.floorIds.includes(state.walker.floor.id)) continue;
      const arrivalTick = Math.round(between(random, ARRIVAL_TICKS.min, ARRIVAL_TICKS.max));
      const evacuee = evacueeOf(random, state.walker, zones, model.floors, arrivalTick);
      if (!evacuee) continue;
      const acknowledges = random() < ACKNOWLEDGING_SHARE;
      const walk: EvacuationWalk = {
        evacuee,
        startTick: ticks,
        acknowledgeTick: acknowledges ? Math.round(between(random, 2, arrivalTick * 0.7)) : null,
        silentFromTick: null,
      };
      state.evacuation = walk;
      script.evacuees.push(tag);
      if (acknowledges) script.acknowledging.push(tag);
      // Silenced, a worker must still be short of the zone: a few ticks in the open first.
      const safeFrom = firstTickInZone(evacuee);
      if (state.silentTicks === 0 && safeFrom >= MIN_TICKS_BEFORE_SILENCE + 2)
        silenceable.push([tag, walk, safeFrom]);
    }
    if (silenceable.length > 0) {
      const [tag, walk, safeFrom] = pick(random, silenceable);
      walk.silentFromTick = Math.round(
        between(random, MIN_TICKS_BEFORE_SILENCE, Math.min(safeFrom - 2, walk.evacuee.arrivalTick * 0.6)),
      );
      script.silenced = tag;
    }
    logger.info(
      `simulator: evacuating ${script.evacuees.length} workers of site ${siteId} to ${zones.length} assembly zones`,
    );
    return script;
  };

  const endEvacuation = () => {
    for (const state of helmets.values()) {
      if (!state.evacuation) continue;
      state.walker = {
        ...evacueeAt(state.evacuation.evacuee, ticks - state.evacuation.startTick),
        dwell: between(random, DWELL_AFTER_EVACUATION.min, DWELL_AFTER_EVACUATION.max),
      };
      state.evacuation = undefined;
    }
  };

  const safeTick = () => {
    try {
      tick();
    } catch (error) {
      logger.error(`simulator: tick failed: ${(error as Error).message}`);
    }
  };
  const stopHistory = new AbortController();
  const nodeHistory = options.backfillNodeHistory
    ? writeNodeHistory(options, model, clock().getTime(), stopHistory.signal).finally(() => {
        nodesLive = true;
      })
    : Promise.resolve(null);
  safeTick();
  const timer = setInterval(safeTick, tickMs);
  logger.info(
    `simulator: site ${siteId}, ${model.helmets.length} helmets, ${model.nodes.length} nodes, ${model.floors.length} floors`,
  );

  return {
    evacuate,
    endEvacuation,
    nodeHistory,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      alarms.close();
      stopHistory.abort();
      await nodeHistory;
      await client.endAsync();
    },
  };
}

/** The site's node history of the last days, written once, logged with its size and time. */
async function writeNodeHistory(
  options: SimulatorOptions,
  model: SiteModel,
  nowMs: number,
  signal: AbortSignal,
): Promise<NodeHistoryBackfill | null> {
  const { db, siteId, logger } = options;
  try {
    const written = await backfillNodeHistory({ db, siteId, model, nowMs, signal });
    logger.info(
      written.rows === 0
        ? `simulator: node history of site ${siteId} already there`
        : `simulator: wrote ${written.rows} node reports of site ${siteId} (${written.from?.toISOString()} to ${written.to?.toISOString()}) in ${(written.ms / 1000).toFixed(1)} s`,
    );
    return written;
  } catch (error) {
    logger.error(`simulator: writing the node history of site ${siteId} failed: ${(error as Error).message}`);
    return null;
  }
}
