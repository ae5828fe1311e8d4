import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type MessageKey, messageKeyOf } from '../../src/domain/messageCatalog';

interface EnvelopeLike {
  status?: unknown;
  message?: unknown;
  errors?: unknown;
  messageKey?: string;
  messageParams?: MessageKey['params'];
  errorKeys?: Record<string, MessageKey>;
}

/**
 * A client that names the languages it reads (Accept-Language, as every browser sends it) gets
 * each text's key and values beside the English text, to show it in the user's language.
 * Scripts and `fetch` without one (Node sends `*`) get the envelope exactly as before.
 */
export function wantsMessageKeys(request: FastifyRequest): boolean {
  const languages = request.headers['accept-language'];
  return typeof languages === 'string' && languages.trim() !== '' && languages.trim() !== '*';
}

/** The envelope with `messageKey`/`messageParams` and `errorKeys` added for the texts the catalogue knows. */
export function withMessageKeys<T extends EnvelopeLike>(envelope: T): T {
  const keyed: T = { ...envelope };
  if (typeof envelope.message === 'string') {
    const described = messageKeyOf(envelope.message);
    if (described) {
      keyed.messageKey = described.key;
      if (described.params) keyed.messageParams = described.params;
    }
  }
  if (envelope.errors && typeof envelope.errors === 'object') {
    const errorKeys: Record<string, MessageKey> = {};
    for (const [field, text] of Object.entries(envelope.errors as Record<string, unknown>)) {
      const described = typeof text === 'string' ? messageKeyOf(text) : undefined;
      if (described) errorKeys[field] = described;
    }
    if (Object.keys(errorKeys).length > 0) keyed.errorKeys = errorKeys;
  }
  return keyed;
}

/** Adds the keys to every envelope (success or error) the listener sends to a client that asks. */
export function installMessageKeys(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, _reply, payload: unknown) => {
    if (!wantsMessageKeys(request) || typeof payload !== 'object' || payload === null) return payload;
    const envelope = payload as EnvelopeLike;
    if (
      typeof envelope.status !== 'string' ||
      (envelope.message === undefined && envelope.errors === undefined)
    ) {
      return payload;
    }
    return withMessageKeys(envelope);
  });
}
