import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { buildSafetyApp } from '../safety/safetyApp';

/** The parts of a JSON Schema the reference shows. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

export interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: Record<string, string[]>[];
  [key: string]: unknown;
}

export interface OpenApiServer {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; enum?: string[]; description?: string }>;
}

export type OpenApiPathItem = Partial<Record<HttpMethod, OpenApiOperation>> & { servers?: OpenApiServer[] };

/** What the reference reads of an OpenAPI 3.1 document (@fastify/swagger writes the rest). */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: OpenApiServer[];
  paths: Record<string, OpenApiPathItem>;
  components?: Record<string, unknown>;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The main listener (PORT): the console, its API and the operations endpoints. */
export const MAIN_LISTENER: OpenApiServer = { url: '/', description: 'the main listener (PORT)' };

/** The safety listener (SAFETY_PORT), on the console's host: the safety REST calls and the socket. */
export function safetyListener(config: Pick<Config, 'safetyPort'>): OpenApiServer {
  return {
    url: '{scheme}://{host}:{port}',
    description: 'the safety listener (SAFETY_PORT)',
    variables: {
      scheme: { default: 'http', enum: ['http', 'https'] },
      host: { default: 'localhost', description: "the console's host" },
      port: { default: String(config.safetyPort) },
    },
  };
}

/** A listener's document as @fastify/swagger collected it from its routes (once they are all added). */
export function listenerDocument(app: FastifyInstance): OpenApiDocument {
  return app.swagger() as unknown as OpenApiDocument;
}

let safetyPaths: Promise<OpenApiDocument['paths']> | null = null;

/**
 * The safety listener's paths, from a safety app built only to be read (its routes keep the
 * database for their handlers; none runs). Built once per process: the routes do not change.
 */
export function safetyListenerPaths(config: Config): Promise<OpenApiDocument['paths']> {
  safetyPaths ??= (async () => {
    const app = await buildSafetyApp({ db: {} as Db, config });
    await app.ready();
    const { paths } = listenerDocument(app);
    await app.close();
    return paths;
  })();
  return safetyPaths;
}

/**
 * One document for both listeners: the main listener's paths on the document's server, the
 * safety listener's with their own server (a path both answer, such as /livez, names both).
 */
export function mergeListeners(
  main: OpenApiDocument,
  safety: OpenApiDocument['paths'],
  config: Pick<Config, 'safetyPort'>,
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = { ...main.paths };
  const safetyServer = safetyListener(config);
  for (const [path, item] of Object.entries(safety)) {
    paths[path] =
      path in main.paths
        ? { ...item, servers: [MAIN_LISTENER, safetyServer] }
        : { ...item, servers: [safetyServer] };
  }
  return { ...main, servers: [MAIN_LISTENER], paths };
}

/** Every `METHOD path` of a document, in the document's path form (`/api/sites/{id}`). */
export function documentedOperations(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** A Fastify route URL in the document's form: `:id` becomes `{id}`. */
export function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}
