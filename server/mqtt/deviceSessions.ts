/** One connected device, as the broker knows it: closing it drops its connection. */
export interface DeviceSession {
  close(): void;
}

/**
 * The device connections of this process by device token, so that revoking a token cuts its
 * devices off at once (DESIGN §1). The HTTP routes revoke, the embedded broker registers; the
 * registry is created before both, since the broker starts after the HTTP app.
 */
export interface DeviceSessions {
  /** Records a connection authenticated with the token; false when the token was revoked meanwhile. */
  register(tokenId: number, session: DeviceSession): boolean;
  unregister(tokenId: number, session: DeviceSession): void;
  /** Closes every connection of the token and refuses its later registrations. */
  revoke(tokenId: number): void;
  /** Connections open with the token. */
  count(tokenId: number): number;
}

export function createDeviceSessions(): DeviceSessions {
  const byToken = new Map<number, Set<DeviceSession>>();
  // A connection authenticated just before the revocation committed registers just after it.
  const revoked = new Set<number>();
  return {
    register(tokenId, session) {
      if (revoked.has(tokenId)) return false;
      const sessions = byToken.get(tokenId) ?? new Set<DeviceSession>();
      sessions.add(session);
      byToken.set(tokenId, sessions);
      return true;
    },
    unregister(tokenId, session) {
      const sessions = byToken.get(tokenId);
      sessions?.delete(session);
      if (sessions?.size === 0) byToken.delete(tokenId);
    },
    revoke(tokenId) {
      revoked.add(tokenId);
      const sessions = byToken.get(tokenId);
      byToken.delete(tokenId);
      for (const session of sessions ?? []) session.close();
    },
    count: (tokenId) => byToken.get(tokenId)?.size ?? 0,
  };
}
