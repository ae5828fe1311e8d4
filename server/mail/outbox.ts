import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { emailOutbox } from '../db/schema';

export interface OutgoingEmail {
  to: string;
  subject: string;
  body: string;
  link?: string;
}

/**
 * E-mail delivery is the edge we do not own: messages go to the outbox table (and the log),
 * from where a mail relay, an operator or a test picks them up.
 */
export async function queueEmail(db: Db, email: OutgoingEmail, log?: FastifyBaseLogger): Promise<void> {
  await db
    .insert(emailOutbox)
    .values({ toAddress: email.to, subject: email.subject, body: email.body, link: email.link });
  log?.info({ to: email.to, subject: email.subject, link: email.link }, 'e-mail queued in the outbox');
}
