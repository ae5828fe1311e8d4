import {
  type EndEvacuationReply,
  type EndEvacuationRequest,
  type EvacuatingBatch,
  type EvacuationEnded,
  type EvacuationRequestReply,
  type EvacuationSnapshot,
  type NetworkFailure,
  SAFETY_EVENTS,
  type SafetyServiceError,
  type StartEvacuationReply,
  type StartEvacuationRequest,
} from '../../../src/domain/evacuation';
import { connectLive, type LiveClient, type LiveClientOptions } from './liveClient';

const WAIT_MS = 5000;

/** A live-channel client that also records the safety events and sends the evacuation requests. */
export interface SafetyClient extends LiveClient {
  inProgress: EvacuationSnapshot[];
  batches: EvacuatingBatch[];
  ended: EvacuationEnded[];
  networkFailures: NetworkFailure[];
  serviceErrors: SafetyServiceError[];
  /** Waits until `read` finds something in what was heard, and returns it. */
  until<T>(what: string, read: () => T | undefined, timeoutMs?: number): Promise<T>;
  start(request: unknown): Promise<StartEvacuationReply>;
  end(request: EndEvacuationRequest | unknown): Promise<EndEvacuationReply>;
  requestEvacuation(): Promise<EvacuationRequestReply>;
}

export function connectSafety(url: string, options: LiveClientOptions): SafetyClient {
  const live = connectLive(url, options);
  const inProgress: EvacuationSnapshot[] = [];
  const batches: EvacuatingBatch[] = [];
  const ended: EvacuationEnded[] = [];
  const networkFailures: NetworkFailure[] = [];
  const serviceErrors: SafetyServiceError[] = [];
  const { socket } = live;
  socket.on(SAFETY_EVENTS.evacuationInProgress, (s: EvacuationSnapshot) => inProgress.push(s));
  socket.on(SAFETY_EVENTS.evacuating, (b: EvacuatingBatch) => batches.push(b));
  socket.on(SAFETY_EVENTS.evacuationEnded, (e: EvacuationEnded) => ended.push(e));
  socket.on(SAFETY_EVENTS.networkFailure, (f: NetworkFailure) => networkFailures.push(f));
  socket.on(SAFETY_EVENTS.safetyServiceError, (e: SafetyServiceError) => serviceErrors.push(e));

  async function until<T>(what: string, read: () => T | undefined, timeoutMs = WAIT_MS): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = read();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  return {
    ...live,
    inProgress,
    batches,
    ended,
    networkFailures,
    serviceErrors,
    until,
    start: (request: StartEvacuationRequest | unknown) =>
      socket.timeout(WAIT_MS).emitWithAck(SAFETY_EVENTS.startEvacuation, request),
    end: (request) => socket.timeout(WAIT_MS).emitWithAck(SAFETY_EVENTS.endEvacuation, request),
    requestEvacuation: () => socket.timeout(WAIT_MS).emitWithAck(SAFETY_EVENTS.requestEvacuation),
  };
}
