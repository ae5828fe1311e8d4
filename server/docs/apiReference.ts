import type { RouteOptions } from 'fastify';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import type { Db } from '../db/database';
import { socketEventsReference } from './socketEvents';

interface JsonSchema {
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

function typeOf(schema: JsonSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' \\| ');
  if (schema.type === 'array') return `${schema.items ? typeOf(schema.items) : 'any'}[]`;
  const type = Array.isArray(schema.type) ? schema.type.join(' \\| ') : (schema.type ?? 'any');
  const limits = [
    schema.format,
    schema.minLength !== undefined || schema.maxLength !== undefined
      ? `${schema.minLength ?? 0}–${schema.maxLength ?? '∞'} chars`
      : undefined,
    schema.minimum !== undefined || schema.maximum !== undefined
      ? `${schema.minimum ?? '−∞'}–${schema.maximum ?? '∞'}`
      : undefined,
  ].filter(Boolean);
  return limits.length ? `${type} (${limits.join(', ')})` : type;
}

function fields(schema: unknown): string {
  const properties = (schema as JsonSchema | undefined)?.properties;
  if (!properties) return '';
  const required = new Set((schema as JsonSchema).required ?? []);
  return Object.entries(properties)
    .map(([name, property]) => `\`${name}${required.has(name) ? '' : '?'}\`: ${typeOf(property)}`)
    .join('<br>');
}

/** The API reference (docs/api.md), written from the routes' own schemas so it cannot drift. */
export async function apiReference(): Promise<string> {
  const routes: RouteOptions[] = [];
  // Routes only keep the database for their handlers; none runs here.
  const collector = await buildApp({
    db: {} as Db,
    config: loadConfig({}),
    onRoute: (route) => routes.push(route),
  });
  await collector.close();
  const rows = routes
    .filter((route) => route.method !== 'HEAD')
    .sort((a, b) => a.url.localeCompare(b.url) || String(a.method).localeCompare(String(b.method)))
    .map((route) => {
      const schema = (route.schema ?? {}) as { params?: unknown; querystring?: unknown; body?: unknown };
      const input = [fields(schema.params), fields(schema.querystring), fields(schema.body)]
        .filter(Boolean)
        .join('<br>');
      return `| ${route.method} | \`${route.url}\` | ${input} |`;
    });
  return [
    '# API reference',
    '',
    'Generated from the route schemas by `npm run docs:api`; a test fails when this file is stale.',
    'Every reply is the envelope `{ status, message?, data?, meta?, errors? }` (DESIGN.md §3).',
    'Routes other than login, registration and password reset need `Authorization: Bearer <token>`;',
    'who may call each one is the access table in `src/domain/access.ts` (DESIGN.md §4).',
    '',
    '| method | path | parameters and body (`?` optional) |',
    '|---|---|---|',
    ...rows,
    '',
    ...socketEventsReference(),
  ].join('\n');
}
