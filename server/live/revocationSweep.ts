import { and, eq, inArray } from 'drizzle-orm';
import { isRole } from '../../src/domain/roles';
import { liveSessionWhere, sessionHolderColumns } from '../auth/authenticate';
import type { Principal } from '../auth/principal';
import { visibleSitesWhere } from '../auth/tenancy';
import { hashToken } from '../auth/tokens';
import type { Db } from '../db/database';
import { sessions, sites, users } from '../db/schema';
import { mayWatchLive } from './liveAdmission';
import type { LiveServer, LiveSocket } from './liveSocketTypes';

export interface RevocationSweep {
  /** One pass now; resolves when the sockets that lost access are disconnected. */
  sweep(): Promise<void>;
  stop(): void;
}

type Holder = Omit<Principal, 'permissions'>;

/**
 * A socket outlives the checks of its handshake, so this process's sockets are re-checked
 * against the database every `intervalMs`: a logout, a deactivation, a role change or a site
 * taken away disconnects them (wherever the change was made, as every process reads the DB).
 * Disconnecting from the server side also drops the socket's recovery session.
 */
export function startRevocationSweep(
  io: LiveServer,
  db: Db,
  intervalMs: number,
  onError: (error: unknown) => void,
): RevocationSweep {
  let running: Promise<void> | null = null;

  async function sweepOnce(): Promise<void> {
    const connected = [...io.of('/').sockets.values()];
    if (connected.length === 0) return;
    const holders = await holdersOf(db, [...new Set(connected.map((s) => hashToken(s.data.token)))]);

    const stillAllowed = new Map<number, { holder: Holder; sockets: LiveSocket[] }>();
    for (const socket of connected) {
      const holder = holders.get(hashToken(socket.data.token));
      if (!holder || holder.role !== socket.data.role || !mayWatchLive(holder)) {
        socket.disconnect();
        continue;
      }
      const entry = stillAllowed.get(holder.id) ?? { holder, sockets: [] };
      entry.sockets.push(socket);
      stillAllowed.set(holder.id, entry);
    }

    for (const { holder, sockets } of stillAllowed.values()) {
      const visible = await visibleAmong(db, holder, [...new Set(sockets.flatMap(sitesOf))]);
      for (const socket of sockets) if (!sitesOf(socket).every((id) => visible.has(id))) socket.disconnect();
    }
  }

  const sweep = () => {
    running ??= sweepOnce().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => {
    sweep().catch(onError);
  }, intervalMs);
  timer.unref();

  return { sweep, stop: () => clearInterval(timer) };
}

/** The sites a socket listens to: its handshake's and those of the feeds it subscribed to. */
function sitesOf(socket: LiveSocket): number[] {
  const { siteId, feeds } = socket.data;
  return [...(siteId === null ? [] : [siteId]), ...feeds.map((feed) => feed.siteId)];
}

/** The live sessions among these token hashes, with their users as they are now. */
async function holdersOf(db: Db, tokenHashes: string[]): Promise<Map<string, Holder>> {
  const rows = await db
    .select({ tokenHash: sessions.tokenHash, ...sessionHolderColumns })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(liveSessionWhere(inArray(sessions.tokenHash, tokenHashes)));
  const holders = new Map<string, Holder>();
  for (const { tokenHash, status, role, ...rest } of rows)
    if (status === 'active' && isRole(role)) holders.set(tokenHash, { ...rest, role });
  return holders;
}

async function visibleAmong(db: Db, holder: Holder, siteIds: number[]): Promise<Set<number>> {
  if (siteIds.length === 0) return new Set();
  // Tenancy does not depend on permissions; the rule is asked with none.
  const principal: Principal = { ...holder, permissions: [] };
  const rows = await db
    .select({ id: sites.id })
    .from(sites)
    .where(and(inArray(sites.id, siteIds), visibleSitesWhere(principal)));
  return new Set(rows.map((r) => r.id));
}
