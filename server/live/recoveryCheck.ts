import type { Db } from '../db/database';
import { admitFeed, admitLiveSocket } from './liveAdmission';
import type { LiveServer, LiveSocketData } from './liveSocketTypes';

/**
 * socket.io replays a recovered session's missed packets as soon as it restores the session,
 * before the middleware runs: without this check a token revoked while its socket was away
 * would still be sent what it missed. A session whose holder lost access is not restored; the
 * client then goes through the ordinary handshake, which refuses it.
 */
export function requireAccessOnRecovery(io: LiveServer, db: Db): void {
  const adapter = io.of('/').adapter;
  const restore = adapter.restoreSession.bind(adapter);
  // The declared type leaves out the null every adapter answers for "nothing to restore".
  adapter.restoreSession = (async (pid: string, offset: string) => {
    const session = await restore(pid, offset);
    return session && (await stillAdmitted(db, session.data as LiveSocketData)) ? session : null;
  }) as typeof adapter.restoreSession;
}

async function stillAdmitted(db: Db, data: LiveSocketData): Promise<boolean> {
  try {
    await admitLiveSocket(db, data.token, {
      siteId: data.siteId === null ? undefined : String(data.siteId),
      floorId: data.floorId === null ? undefined : String(data.floorId),
    });
    for (const feed of data.feeds ?? []) await admitFeed(db, data.token, feed);
    return true;
  } catch {
    return false;
  }
}
