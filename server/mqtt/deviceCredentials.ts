import { timingSafeEqual } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { hashToken, newToken } from '../auth/tokens';
import type { Db } from '../db/database';
import { deviceTokens } from '../db/schema';
import { mosquittoPasswordHash } from './mosquittoPassword';

export type DeviceTokenRow = typeof deviceTokens.$inferSelect;

/**
 * A new device token of a site: stored as its hash for the HTTP ingest and the embedded broker,
 * and in Mosquitto's password-file format for an external broker. The token itself is returned
 * once and never stored.
 */
export async function createDeviceToken(
  db: Db,
  values: { siteId: number; label: string; createdBy: number | null },
): Promise<{ row: DeviceTokenRow; token: string }> {
  const token = newToken();
  const [row] = await db
    .insert(deviceTokens)
    .values({
      ...values,
      tokenHash: hashToken(token),
      brokerPasswordHash: mosquittoPasswordHash(token),
    })
    .returning();
  return { row, token };
}

/** What a device is once its MQTT login checks out: the token it used and that token's site. */
export interface DeviceIdentity {
  tokenId: number;
  siteId: number;
}

/**
 * The device logging in with `username` (the token's id) and `password` (the token), or null for
 * an unknown, revoked or mismatched pair.
 */
export async function authenticateDevice(
  db: Db,
  username: string | undefined,
  password: Buffer | string | undefined,
): Promise<DeviceIdentity | null> {
  if (!username || !/^[1-9]\d{0,9}$/.test(username) || password === undefined) return null;
  const tokenId = Number(username);
  if (!Number.isSafeInteger(tokenId) || tokenId > 2_147_483_647) return null;
  const [row] = await db
    .select({ siteId: deviceTokens.siteId, tokenHash: deviceTokens.tokenHash })
    .from(deviceTokens)
    .where(and(eq(deviceTokens.id, tokenId), isNull(deviceTokens.revokedAt)))
    .limit(1);
  if (!row) return null;
  const given = Buffer.from(hashToken(password.toString()), 'hex');
  const stored = Buffer.from(row.tokenHash, 'hex');
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
  return { tokenId, siteId: row.siteId };
}
