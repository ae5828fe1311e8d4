import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Compared as digests: the same length whatever was sent, and in constant time. */
function sameToken(sent: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(sent), digest(expected));
}

export type MetricsAccess = 'allowed' | 'unauthenticated' | 'forbidden';

/**
 * Who may scrape `/metrics`: with a token, whoever sends it as a bearer; without one, only this
 * machine. The socket's address decides, never X-Forwarded-For, and a forwarded request counts as
 * remote, so a reverse proxy on this machine does not open the metrics to the world.
 */
export function metricsAccess(request: FastifyRequest, token: string | null): MetricsAccess {
  if (token) {
    const [scheme, sent] = (request.headers.authorization ?? '').split(' ');
    return scheme?.toLowerCase() === 'bearer' && sent && sameToken(sent, token)
      ? 'allowed'
      : 'unauthenticated';
  }
  const forwarded =
    request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  const local = LOOPBACK.has(request.raw.socket.remoteAddress ?? '');
  return local && !forwarded ? 'allowed' : 'forbidden';
}
