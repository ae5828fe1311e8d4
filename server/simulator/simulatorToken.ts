import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/database';
import { deviceTokens } from '../db/schema';
import { createDeviceToken } from '../mqtt/deviceCredentials';

export const SIMULATOR_TOKEN_LABEL = 'Built-in simulator';

/** The MQTT login of a device token: the token's id and the token. */
export interface DeviceLogin {
  username: string;
  password: string;
}

/**
 * A fresh device token for the built-in simulator of a site, minted at every start (the token
 * itself is never stored, so the previous one cannot be reused). The previous simulator tokens
 * (minted by no user) are deleted, so restarts do not pile them up in the site's token list.
 */
export async function mintSimulatorLogin(db: Db, siteId: number): Promise<DeviceLogin> {
  await db
    .delete(deviceTokens)
    .where(
      and(
        eq(deviceTokens.siteId, siteId),
        eq(deviceTokens.label, SIMULATOR_TOKEN_LABEL),
        isNull(deviceTokens.createdBy),
      ),
    );
  const { row, token } = await createDeviceToken(db, {
    siteId,
    label: SIMULATOR_TOKEN_LABEL,
    createdBy: null,
  });
  return { username: String(row.id), password: token };
}
