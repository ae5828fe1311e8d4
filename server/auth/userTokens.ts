import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/database';
import { userTokens } from '../db/schema';
import { hashToken, newToken } from './tokens';

export type UserTokenPurpose = 'invitation' | 'password-reset';

/** Issues a single-use token and revokes the user's earlier unused ones of the same purpose. */
export async function issueUserToken(db: Db, userId: number, purpose: UserTokenPurpose, ttlHours: number) {
  const token = newToken();
  await db.transaction(async (tx) => {
    await tx
      .update(userTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose), isNull(userTokens.usedAt)));
    await tx.insert(userTokens).values({
      userId,
      purpose,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + ttlHours * 3600_000),
    });
  });
  return token;
}

/**
 * Marks the token used and returns its user id, or null when it is unknown, used or expired.
 * The update is the check, so two concurrent uses cannot both succeed.
 */
export async function consumeUserToken(
  db: Pick<Db, 'update'>,
  token: string,
  purpose: UserTokenPurpose,
): Promise<number | null> {
  const [row] = await db
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(userTokens.tokenHash, hashToken(token)),
        eq(userTokens.purpose, purpose),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: userTokens.userId });
  return row?.userId ?? null;
}
