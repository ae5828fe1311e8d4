import { io, type Socket } from 'socket.io-client';
import { LIVE_EVENTS, type LiveSnapshot, type LocationUpdate } from '../../../src/domain/live';

export interface LiveClientOptions {
  token?: string;
  siteId: number | string;
  floorId?: number | string;
  /** Let socket.io reconnect (and recover its session) after a dropped connection. */
  reconnect?: boolean;
}

/** A real socket.io client of the live channel that records everything it hears. */
export interface LiveClient {
  socket: Socket;
  snapshots: LiveSnapshot[];
  updates: LocationUpdate[];
  /** The name of every event frame that reached the client, even those socket.io holds back. */
  framesHeard: string[];
  /** The first snapshot, sent on connect. */
  firstSnapshot(): Promise<LiveSnapshot>;
  /** Waits until `count` snapshots arrived in all and returns the last. */
  snapshot(count: number): Promise<LiveSnapshot>;
  /** Waits until `count` updates arrived in all and returns the last. */
  update(count: number): Promise<LocationUpdate>;
  /** Resolves with the disconnect reason, or rejects after `timeoutMs`. */
  disconnected(timeoutMs: number): Promise<string>;
  /** Resolves with the refusal of the handshake, or rejects when it is admitted. */
  refused(): Promise<{ message: string; status: number | undefined }>;
  requestSnapshot(): Promise<LiveSnapshot>;
  close(): void;
}

const WAIT_MS = 5000;
/** socket.io-parser's PacketType.EVENT (the parser is socket.io-client's dependency, not ours). */
const EVENT_PACKET = 2;

function within<T>(timeoutMs: number, what: string, wait: (resolve: (value: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
    wait((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

export function connectLive(url: string, options: LiveClientOptions): LiveClient {
  const query: Record<string, string> = { siteId: String(options.siteId) };
  if (options.floorId !== undefined) query.floorId = String(options.floorId);
  const socket = io(url, {
    path: '/socket.io',
    auth: options.token === undefined ? {} : { token: options.token },
    query,
    transports: ['websocket'],
    reconnection: options.reconnect ?? false,
    forceNew: true,
  });
  const snapshots: LiveSnapshot[] = [];
  const updates: LocationUpdate[] = [];
  const framesHeard: string[] = [];
  socket.io.on('packet', (packet: { type: number; data?: unknown }) => {
    if (packet.type === EVENT_PACKET && Array.isArray(packet.data)) framesHeard.push(String(packet.data[0]));
  });
  const listeners = new Set<() => void>();
  const heard = () => {
    for (const listener of listeners) listener();
  };
  socket.on(LIVE_EVENTS.snapshot, (snapshot: LiveSnapshot) => {
    snapshots.push(snapshot);
    heard();
  });
  socket.on(LIVE_EVENTS.locationUpdate, (update: LocationUpdate) => {
    updates.push(update);
    heard();
  });

  const until = <T>(what: string, value: () => T | undefined) =>
    within<T>(WAIT_MS, what, (resolve) => {
      const check = () => {
        const found = value();
        if (found === undefined) return;
        listeners.delete(check);
        resolve(found);
      };
      listeners.add(check);
      check();
    });

  return {
    socket,
    snapshots,
    updates,
    framesHeard,
    snapshot: (count) =>
      until(`snapshot #${count}`, () => (snapshots.length >= count ? snapshots[count - 1] : undefined)),
    firstSnapshot: () => until('the first snapshot', () => snapshots[0]),
    update: (count) =>
      until(`update #${count}`, () => (updates.length >= count ? updates[count - 1] : undefined)),
    disconnected: (timeoutMs) =>
      within(timeoutMs, 'the server to disconnect the socket', (resolve) => {
        if (socket.disconnected && !socket.active) resolve('already disconnected');
        socket.on('disconnect', (reason) => resolve(reason));
      }),
    refused: () =>
      within(WAIT_MS, 'the handshake to be refused', (resolve) => {
        socket.on('connect', () => resolve({ message: 'admitted', status: 200 }));
        socket.on('connect_error', (error: Error & { data?: { status?: number } }) =>
          resolve({ message: error.message, status: error.data?.status }),
        );
      }),
    requestSnapshot: () => socket.timeout(WAIT_MS).emitWithAck(LIVE_EVENTS.requestSnapshot),
    close: () => {
      socket.disconnect();
    },
  };
}
