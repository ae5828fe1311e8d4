import fc from 'fast-check';
import { isTextRulePattern } from '../../../src/domain/text';

/**
 * fast-check arbitraries of HTTP requests generated from a route's TypeBox (JSON) schemas, for
 * the schema fuzz test: plausible requests that reach the handlers, and hostile ones.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  format?: string;
}

export interface RouteUnderTest {
  app: 'api' | 'safety';
  method: string;
  url: string;
  schema: { params?: JsonSchema; querystring?: JsonSchema; body?: JsonSchema };
}

export interface GeneratedRequest {
  path: string;
  query: string;
  body: unknown;
}

const MISSING = Symbol('missing');

const NASTY_TEXT = [
  '\u0000',
  'name\u0000',
  '\u0007bell',
  'two\nlines',
  'tab\t',
  '\u0085',
  '\uFFFF',
  '\uD800',
  '%00',
  "'; drop table users; --",
  '../../etc/passwd',
  '   ',
  '',
  'عامل',
  '👷',
  '2026-02-30',
  '0000-01-01T00:00:00Z',
  '2026-11-22T08:00:00Z',
  'name,asc',
  'x'.repeat(5000),
];

function anyJson(): fc.Arbitrary<unknown> {
  return fc.jsonValue({ maxDepth: 2 });
}

function wrongType(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.string({ maxLength: 5 }),
    fc.constant([]),
    fc.constant({}),
  );
}

/**
 * How a request is made: plausible ones (every field of its type and within its limits, ids of
 * real rows) reach the handlers; hostile ones (control characters, edges, wrong types, missing and
 * extra fields) probe validation and whatever it lets through.
 */
export interface Generation {
  hostile: boolean;
  /** Ids of the demo site's rows, by what a parameter names (`sites`, `floorId`…), and all together. */
  ids: Record<string, number[]> & { all: number[] };
}

function arbitraryOf(schema: JsonSchema, gen: Generation): fc.Arbitrary<unknown> {
  if (!gen.hostile) return shapedBy(schema, gen);
  return fc.oneof({ weight: 8, arbitrary: shapedBy(schema, gen) }, { weight: 1, arbitrary: wrongType() });
}

function shapedBy(schema: JsonSchema, gen: Generation): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => arbitraryOf(option, gen)));
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((type) => shapedBy({ ...schema, type }, gen)));
  switch (schema.type) {
    case 'string':
      return gen.hostile ? hostileString(schema) : plausibleString(schema);
    case 'integer':
      return integerOf(schema, gen);
    case 'number': {
      const inRange = fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
      if (!gen.hostile) return inRange;
      return fc.oneof(inRange, fc.constantFrom(-1e308, 1e308, -181, 181, 0, Number.MAX_SAFE_INTEGER));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayOf(schema, gen);
    case 'object':
      return objectOf(schema, gen);
    default:
      return anyJson();
  }
}

const PLAUSIBLE_TEXT = [
  'Tower A',
  'Level 1',
  '2026-11-22',
  '2026-11-22T08:00:00Z',
  'name,asc',
  'helmet',
  'HLM-0001',
];

function plausibleString(
  schema: JsonSchema & { pattern?: string; minLength?: number },
): fc.Arbitrary<string> {
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'date-time')
    return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
  if (schema.pattern && !isTextRulePattern(schema.pattern))
    return fc.stringMatching(new RegExp(schema.pattern));
  const max = Math.min(schema.maxLength ?? 30, 30);
  const min = Math.min(schema.minLength ?? 0, max);
  return fc.oneof(
    fc.string({ unit: 'grapheme-ascii', minLength: Math.max(min, 1), maxLength: max }),
    fc.constantFrom(...PLAUSIBLE_TEXT.filter((text) => text.length <= (schema.maxLength ?? 5000))),
  );
}

function hostileString(schema: JsonSchema): fc.Arbitrary<string> {
  const limit = schema.maxLength ?? 5000;
  return fc.oneof(
    fc.string({ maxLength: Math.min(limit, 20) }),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.constantFrom(...NASTY_TEXT),
    // PostgreSQL's own refusal (22021): the one a text field must never pass on.
    fc.string({ maxLength: 8 }).map((text) => `${text}\u0000`),
    fc.constant('x'.repeat(limit + 1)),
  );
}

function integerOf(schema: JsonSchema, gen: Generation): fc.Arbitrary<number> {
  const min = schema.minimum ?? -2_147_483_648;
  const max = schema.maximum ?? 2_147_483_647;
  const ids = fc.constantFrom(...gen.ids.all);
  const inRange = fc.integer({ min, max });
  if (!gen.hostile) return min >= 1 ? fc.oneof({ weight: 4, arbitrary: ids }, inRange) : inRange;
  return fc.oneof(inRange, ids, fc.constantFrom(min - 1, max + 1, 0, -1, 2 ** 31, 2 ** 53, 1.5));
}

function arrayOf(schema: JsonSchema, gen: Generation): fc.Arbitrary<unknown[]> {
  const tuple = schema.prefixItems ?? (Array.isArray(schema.items) ? schema.items : undefined);
  if (tuple) return fc.tuple(...tuple.map((item) => arbitraryOf(item, gen)));
  const item = (schema.items as JsonSchema | undefined) ?? {};
  return fc.array(arbitraryOf(item, gen), { maxLength: Math.min(schema.maxItems ?? 5, 5) });
}

function objectOf(schema: JsonSchema, gen: Generation): fc.Arbitrary<Record<string, unknown>> {
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(([key, property]) => {
    const freq = required.has(key) ? (gen.hostile ? 10 : Number.MAX_SAFE_INTEGER) : 2;
    return fc
      .option(arbitraryOf(property, gen), { freq, nil: MISSING })
      .map((value) => [key, value] as const);
  });
  const extra = fc.option(fc.tuple(fc.constantFrom('extra', 'constructor', 'toString'), anyJson()), {
    freq: gen.hostile ? 5 : Number.MAX_SAFE_INTEGER,
    nil: undefined,
  });
  return fc.tuple(fc.tuple(...fields), extra).map(([entries, extraField]) => {
    const object: Record<string, unknown> = {};
    for (const [key, value] of entries) if (value !== MISSING) object[key] = value;
    if (extraField) object[extraField[0]] = extraField[1];
    return object;
  });
}

/** Which rows a path parameter names: `:id` by the segment before it, the others by their name. */
function idsOfParam(url: string, name: string, gen: Generation): number[] {
  const key = name === 'id' ? (url.match(/\/(\w+)\/:id\b/)?.[1] ?? 'all') : name;
  return gen.ids[key]?.length ? gen.ids[key] : gen.ids.all;
}

/** A path parameter: mostly a real row id, sometimes what its schema allows or refuses, sometimes junk. */
function paramOf(route: RouteUnderTest, name: string, gen: Generation): fc.Arbitrary<string> {
  const rows = fc.constantFrom(...idsOfParam(route.url, name, gen)).map(String);
  const schema = route.schema.params?.properties?.[name];
  const shaped = (schema ? shapedBy(schema, gen) : fc.string()).map(String);
  if (!gen.hostile) return schema?.type === 'integer' ? rows : shaped;
  return fc.oneof(
    { weight: 3, arbitrary: rows },
    { weight: 2, arbitrary: shaped },
    { weight: 1, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  );
}

/** A lone surrogate cannot be percent-encoded; a client would send U+FFFD for it. */
function encodePathSegment(value: string): string {
  return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/gu, '\uFFFD'));
}

function requestsOf(route: RouteUnderTest, gen: Generation): fc.Arbitrary<GeneratedRequest> {
  const names = [...route.url.matchAll(/:(\w+)(\?)?/g)].map((match) => ({
    name: match[1],
    optional: match[2] === '?',
  }));
  const params = fc.tuple(
    ...names.map(({ name, optional }) =>
      fc.option(paramOf(route, name, gen), { freq: optional ? 3 : Number.MAX_SAFE_INTEGER, nil: undefined }),
    ),
  );
  const query = route.schema.querystring ? objectOf(route.schema.querystring, gen) : fc.constant({});
  const body = route.schema.body
    ? arbitraryOf(route.schema.body, gen)
    : route.method === 'GET' || route.method === 'DELETE' || !gen.hostile
      ? fc.constant(undefined)
      : fc.option(anyJson(), { nil: undefined });
  return fc.tuple(params, query, body).map(([values, queryObject, bodyValue]) => {
    let index = 0;
    const path = route.url.replace(/\/:(\w+)\??/g, () => {
      const value = values[index++];
      return value === undefined ? '' : `/${encodePathSegment(value)}`;
    });
    const search = new URLSearchParams(
      Object.entries(queryObject).map(([key, value]) => [
        key,
        typeof value === 'object' ? JSON.stringify(value) : String(value),
      ]),
    ).toString();
    return { path, query: search, body: bodyValue };
  });
}

export function requestsFor(route: RouteUnderTest, ids: Generation['ids']): fc.Arbitrary<GeneratedRequest> {
  return fc.oneof(requestsOf(route, { hostile: false, ids }), requestsOf(route, { hostile: true, ids }));
}
