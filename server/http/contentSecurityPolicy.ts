import type { IncomingMessage } from 'node:http';
import type { FastifyHelmetOptions } from '@fastify/helmet';
import { powerBiFrameSources } from '../../src/domain/powerBi';
import type { Config } from '../config';

type CspOptions = Exclude<FastifyHelmetOptions['contentSecurityPolicy'], boolean | undefined>;

/** A host name or IP literal as it may appear in a source expression; anything else is dropped. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])$/;

/** The request's host without its port, if it is a plain host name. */
function requestHost(request: IncomingMessage): string | null {
  const host = (request.headers.host ?? '').replace(/:\d+$/, '');
  return HOST.test(host) ? host : null;
}

/**
 * The safety listener as the console reaches it: the page's own host on SAFETY_PORT (src/api/live.ts),
 * over HTTP(S) for /api/safety and WebSocket for socket.io. 'self' does not cover another port.
 */
function safetyListenerSources(request: IncomingMessage, config: Pick<Config, 'safetyPort'>): string {
  const host = requestHost(request);
  if (!host) return '';
  const port = config.safetyPort;
  return ['http', 'https', 'ws', 'wss'].map((scheme) => `${scheme}://${host}:${port}`).join(' ');
}

function originOf(url: string | undefined): string[] {
  if (!url) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
}

/**
 * The console's Content-Security-Policy: no inline or evaluated script (PixiJS runs through
 * `pixi.js/unsafe-eval`'s precompiled polyfills), nothing from other hosts but the safety listener
 * and the error reporter. Style sheets and <style> elements come only from the console's files;
 * style attributes are allowed ('unsafe-inline' for style-src-attr only): Blueprint's table writes
 * its resize sensor as HTML with style attributes, and an attribute cannot run script or load anything.
 * Frames open only the Power BI service's hosts over https (the Analytics reports), nothing of
 * this origin or any other.
 */
export function consoleContentSecurityPolicy(config: Pick<Config, 'safetyPort' | 'sentryDsn'>): CspOptions {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      styleSrcAttr: ["'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      // Pixi decodes images in a worker it starts from a blob: URL.
      workerSrc: ["'self'", 'blob:'],
      connectSrc: [
        "'self'",
        (request: IncomingMessage) => safetyListenerSources(request, config),
        ...originOf(config.sentryDsn),
      ],
      frameSrc: powerBiFrameSources(),
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  };
}
