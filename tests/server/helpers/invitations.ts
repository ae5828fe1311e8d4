import { asc, eq } from 'drizzle-orm';
import { emailOutbox } from '../../../server/db/schema';
import type { TestApp } from './testApp';

/**
 * POST /api/invite through `app()` as `token` (null: none), the e-mails queued for an address
 * (oldest first), and the token at the end of a registration link.
 */
export function invitationRequests(app: () => TestApp) {
  return {
    invite: (token: string | null, payload: Record<string, unknown>) =>
      app().call(token, { method: 'POST', url: '/api/invite', payload }),
    outboxFor: (email: string) =>
      app()
        .db.select()
        .from(emailOutbox)
        .where(eq(emailOutbox.toAddress, email))
        .orderBy(asc(emailOutbox.id)),
    tokenOf: (link: string | null) => link!.split('/register/')[1],
  };
}
