import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/**
 * The console's own origin (PUBLIC_URL), the only one the safety listener answers across origins.
 * Read at every request: tests learn their console's address only once it listens.
 */
export function consoleOrigin(config: Partial<Pick<Config, 'publicUrl'>>): string | null {
  if (!config.publicUrl) return null;
  try {
    return new URL(config.publicUrl).origin;
  } catch {
    return null;
  }
}

export function isConsoleOrigin(
  config: Partial<Pick<Config, 'publicUrl'>>,
  origin: string | undefined,
): boolean {
  return origin !== undefined && origin === consoleOrigin(config);
}

/**
 * CORS for /api/safety: the console (on PORT) calls this listener (on SAFETY_PORT), another
 * origin. Only the console's origin is named; any other page's request goes out without an
 * allowing header, so its browser withholds the reply. Preflights are answered here, before
 * authentication, which they never carry.
 */
export function allowConsoleCors(app: FastifyInstance, config: Partial<Pick<Config, 'publicUrl'>>): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/safety/')) return;
    reply.header('vary', 'Origin');
    const allowed = isConsoleOrigin(config, request.headers.origin);
    if (allowed) {
      reply.header('access-control-allow-origin', request.headers.origin);
      reply.header('access-control-expose-headers', 'content-disposition');
    }
    if (request.method !== 'OPTIONS') return;
    if (allowed) {
      reply
        .header('access-control-allow-methods', 'GET, POST, PUT, OPTIONS')
        .header('access-control-allow-headers', 'authorization, content-type, x-requested-with, accept')
        .header('access-control-max-age', '600');
    }
    return reply.code(204).send();
  });
}
