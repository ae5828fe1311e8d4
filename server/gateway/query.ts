import { controlCharactersMessage, hasControlCharacters } from '../../src/domain/text';
import { canonicalTimezone } from '../../src/domain/timezones';
import { type CubeDeclaration, type ResolvedMember, resolveMember } from './cubes';
import { DateRangeError, explicitRange, type LocalRange, localBound, relativeRange } from './dateRange';

/**
 * A Cube REST query (https://cube.dev/docs/product/apis-integrations/rest-api/query-format),
 * checked against the cube declarations and normalised: every member resolved, every date range a
 * pair of local times, defaults filled in. Anything it cannot read is a QueryError (400), never a
 * server error. The normalised form is also the job key of server/gateway/jobs.ts.
 */

export class QueryError extends Error {}

export const GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'gt',
  'gte',
  'lt',
  'lte',
  'set',
  'notSet',
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'beforeOrOnDate',
  'afterDate',
  'afterOrOnDate',
] as const;
export type Operator = (typeof OPERATORS)[number];

export interface TimeDimension {
  dimension: string;
  granularity?: Granularity;
  dateRange?: LocalRange;
}

export type Filter =
  | { member: string; operator: Operator; values: string[] }
  | { and: Filter[] }
  | { or: Filter[] };

export type OrderDirection = 'asc' | 'desc';

export interface NormalisedQuery {
  measures: string[];
  dimensions: string[];
  timeDimensions: TimeDimension[];
  filters: Filter[];
  order: [string, OrderDirection][];
  limit: number;
  offset: number;
  timezone: string;
}

export const DEFAULT_LIMIT = 10_000;
export const MAX_LIMIT = 50_000;
const MAX_MEMBERS = 50;
const MAX_FILTERS = 100;
const MAX_FILTER_DEPTH = 5;
const MAX_VALUES = 1_000;
const MAX_VALUE_LENGTH = 500;

/** Keys a Cube client may send that change nothing here. */
const IGNORED_KEYS = new Set(['renewQuery', 'total', 'queryType', 'rowLimit']);
const KNOWN_KEYS = new Set([
  'measures',
  'dimensions',
  'timeDimensions',
  'filters',
  'order',
  'limit',
  'offset',
  'timezone',
  'segments',
  'ungrouped',
  'responseFormat',
  ...IGNORED_KEYS,
]);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const shown = (value: unknown) => String(value).slice(0, 100);

function stringList(value: unknown, field: string, max: number): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new QueryError(`${field} must be an array of member names`);
  }
  if (value.length > max) throw new QueryError(`${field} accepts at most ${max} entries`);
  return value as string[];
}

/** Resolves members and checks they all come from one cube (the gateway joins no cubes). */
class Members {
  cube: CubeDeclaration | undefined;
  cubeName: string | undefined;

  resolve(name: string, expect?: 'measure' | 'dimension' | 'time'): ResolvedMember {
    const member = resolveMember(name);
    if (!member) throw new QueryError(`Unknown member: ${shown(name)}`);
    if (this.cubeName !== undefined && this.cubeName !== member.cubeName) {
      throw new QueryError(
        `Members of different cubes cannot be combined: ${this.cubeName} and ${member.cubeName}`,
      );
    }
    this.cube = member.cube;
    this.cubeName = member.cubeName;
    if (expect === 'measure' && member.kind !== 'measure') throw new QueryError(`${name} is not a measure`);
    if (expect === 'dimension' && member.kind !== 'dimension')
      throw new QueryError(`${name} is not a dimension`);
    if (expect === 'time' && member.type !== 'time') throw new QueryError(`${name} is not a time dimension`);
    return member;
  }
}

function dateRangeOf(value: unknown, timezone: string, now: Date): LocalRange {
  if (typeof value === 'string') return relativeRange(value, timezone, now);
  if (Array.isArray(value) && value.length === 2 && value.every((item) => typeof item === 'string')) {
    return explicitRange(value[0], value[1]);
  }
  throw new QueryError('dateRange must be [from, to] or a relative range such as "last 7 days"');
}

function timeDimensionsOf(value: unknown, members: Members, timezone: string, now: Date): TimeDimension[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new QueryError('timeDimensions must be an array');
  if (value.length > MAX_MEMBERS)
    throw new QueryError(`timeDimensions accepts at most ${MAX_MEMBERS} entries`);
  return value.map((entry) => {
    if (!isObject(entry) || typeof entry.dimension !== 'string') {
      throw new QueryError('Each time dimension needs a dimension');
    }
    const extra = Object.keys(entry).find((key) => !['dimension', 'granularity', 'dateRange'].includes(key));
    if (extra) throw new QueryError(`Unsupported time dimension field: ${shown(extra)}`);
    members.resolve(entry.dimension, 'time');
    const result: TimeDimension = { dimension: entry.dimension };
    if (entry.granularity !== undefined && entry.granularity !== null) {
      if (!(GRANULARITIES as readonly unknown[]).includes(entry.granularity)) {
        throw new QueryError(
          `Unknown granularity: ${shown(entry.granularity)} (one of ${GRANULARITIES.join(', ')})`,
        );
      }
      result.granularity = entry.granularity as Granularity;
    }
    if (entry.dateRange !== undefined && entry.dateRange !== null) {
      result.dateRange = dateRangeOf(entry.dateRange, timezone, now);
    }
    return result;
  });
}

function valuesOf(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new QueryError('Filter values must be an array');
  if (value.length > MAX_VALUES) throw new QueryError(`A filter accepts at most ${MAX_VALUES} values`);
  return value.map((item) => {
    if (!['string', 'number', 'boolean'].includes(typeof item)) {
      throw new QueryError('Filter values must be strings or numbers');
    }
    const text = String(item);
    if (text.length > MAX_VALUE_LENGTH) {
      throw new QueryError(`A filter value accepts at most ${MAX_VALUE_LENGTH} characters`);
    }
    if (hasControlCharacters(text)) throw new QueryError(controlCharactersMessage('A filter value'));
    return text;
  });
}

const STRING_OPERATORS: readonly Operator[] = ['contains', 'notContains', 'startsWith', 'endsWith'];
const COMPARISONS: readonly Operator[] = ['gt', 'gte', 'lt', 'lte'];
const DATE_OPERATORS: readonly Operator[] = [
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'beforeOrOnDate',
  'afterDate',
  'afterOrOnDate',
];

/** Each operator on the member types it reads, with the number of values it takes. */
function checkCondition(member: ResolvedMember, operator: Operator, values: string[]): string[] {
  const name = member.name;
  if (operator === 'set' || operator === 'notSet') return [];
  if (values.length === 0) throw new QueryError(`The ${operator} filter on ${name} needs values`);
  if (STRING_OPERATORS.includes(operator) && member.type !== 'string') {
    throw new QueryError(`${operator} applies to string members, not ${name}`);
  }
  if (COMPARISONS.includes(operator) && member.type === 'string') {
    throw new QueryError(`${operator} applies to number and time members, not ${name}`);
  }
  if (DATE_OPERATORS.includes(operator)) {
    if (member.type !== 'time') throw new QueryError(`${operator} applies to time members, not ${name}`);
    const ranged = operator === 'inDateRange' || operator === 'notInDateRange';
    if (values.length !== (ranged ? 2 : 1)) {
      throw new QueryError(`The ${operator} filter on ${name} takes ${ranged ? 'two values' : 'one value'}`);
    }
    if (ranged) return explicitRange(values[0], values[1]);
    return [localBound(values[0], operator === 'beforeOrOnDate' || operator === 'afterDate')];
  }
  if (COMPARISONS.includes(operator) && values.length !== 1) {
    throw new QueryError(`The ${operator} filter on ${name} takes one value`);
  }
  if (member.type === 'number' && !STRING_OPERATORS.includes(operator)) {
    for (const value of values) {
      if (value.trim() === '' || !Number.isFinite(Number(value))) {
        throw new QueryError(`${name} compares with numbers, not "${shown(value)}"`);
      }
    }
    return values.map((value) => String(Number(value)));
  }
  if (member.type === 'time' && !STRING_OPERATORS.includes(operator)) {
    const end = operator === 'gt' || operator === 'lte';
    return values.map((value) => localBound(value, end));
  }
  return values;
}

function filtersOf(value: unknown, members: Members, depth = 0, counter = { n: 0 }): Filter[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new QueryError('filters must be an array');
  if (depth > MAX_FILTER_DEPTH) throw new QueryError(`Filters nest at most ${MAX_FILTER_DEPTH} levels deep`);
  return value.map((entry): Filter => {
    counter.n += 1;
    if (counter.n > MAX_FILTERS) throw new QueryError(`A query accepts at most ${MAX_FILTERS} filters`);
    if (!isObject(entry)) throw new QueryError('Each filter must be an object');
    if ('and' in entry || 'or' in entry) {
      const logical = 'and' in entry ? 'and' : 'or';
      if (Object.keys(entry).length !== 1) throw new QueryError('An and/or filter holds nothing else');
      const inner = filtersOf(entry[logical], members, depth + 1, counter);
      if (inner.length === 0) throw new QueryError(`An ${logical} filter needs at least one filter`);
      return logical === 'and' ? { and: inner } : { or: inner };
    }
    const memberName = entry.member ?? entry.dimension;
    if (typeof memberName !== 'string') throw new QueryError('Each filter needs a member');
    const extra = Object.keys(entry).find(
      (key) => !['member', 'dimension', 'operator', 'values'].includes(key),
    );
    if (extra) throw new QueryError(`Unsupported filter field: ${shown(extra)}`);
    const member = members.resolve(memberName);
    if (!(OPERATORS as readonly unknown[]).includes(entry.operator)) {
      throw new QueryError(`Unknown filter operator: ${shown(entry.operator)}`);
    }
    const operator = entry.operator as Operator;
    return { member: memberName, operator, values: checkCondition(member, operator, valuesOf(entry.values)) };
  });
}

/** Every member the order names must be one the query returns. */
function orderOf(value: unknown, query: Omit<NormalisedQuery, 'order'>): [string, OrderDirection][] {
  const returned = new Set([
    ...query.measures,
    ...query.dimensions,
    ...query.timeDimensions.filter((td) => td.granularity).map((td) => td.dimension),
  ]);
  const pairs: unknown[][] =
    value === undefined
      ? []
      : Array.isArray(value)
        ? value.map((pair) => (Array.isArray(pair) ? pair : [pair]))
        : isObject(value)
          ? Object.entries(value)
          : [[null]];
  if (pairs.length > MAX_MEMBERS) throw new QueryError(`order accepts at most ${MAX_MEMBERS} entries`);
  const order = pairs.map(([member, direction]): [string, OrderDirection] => {
    if (typeof member !== 'string' || (direction !== 'asc' && direction !== 'desc')) {
      throw new QueryError('order must be { member: "asc" | "desc" } or [[member, "asc" | "desc"], …]');
    }
    // `Cube.time.day` names the time dimension at its granularity.
    const base = member.split('.').slice(0, 2).join('.');
    if (!resolveMember(base)) throw new QueryError(`Unknown member: ${shown(member)}`);
    if (!returned.has(base)) throw new QueryError(`${shown(member)} is ordered by but not queried`);
    return [base, direction];
  });
  if (order.length > 0 || value !== undefined) return order;
  // Cube's default: by the first time dimension with a granularity, else the first measure descending.
  const time = query.timeDimensions.find((td) => td.granularity);
  if (time) return [[time.dimension, 'asc']];
  if (query.measures.length) return [[query.measures[0], 'desc']];
  if (query.dimensions.length) return [[query.dimensions[0], 'asc']];
  return [];
}

function whole(value: unknown, field: string, fallback: number, max: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw new QueryError(`${field} must be a whole number from 0 to ${max}`);
  }
  return value;
}

/** The query checked and normalised, or a QueryError saying what is wrong with it. */
export function normaliseQuery(input: unknown, now: Date): NormalisedQuery & { cube: CubeDeclaration } {
  if (!isObject(input)) throw new QueryError('The query must be a JSON object');
  const unknownKey = Object.keys(input).find((key) => !KNOWN_KEYS.has(key));
  if (unknownKey) throw new QueryError(`Unsupported query field: ${shown(unknownKey)}`);
  if (input.segments !== undefined && stringList(input.segments, 'segments', MAX_MEMBERS).length > 0) {
    throw new QueryError(`Unknown member: ${shown((input.segments as string[])[0])}`);
  }
  if (input.ungrouped !== undefined && input.ungrouped !== false) {
    throw new QueryError('Ungrouped queries are not supported');
  }
  if (input.responseFormat !== undefined && input.responseFormat !== 'default') {
    throw new QueryError('Only the default response format is supported');
  }
  let timezone = 'UTC';
  if (input.timezone !== undefined) {
    const zone = typeof input.timezone === 'string' ? canonicalTimezone(input.timezone) : null;
    if (!zone) throw new QueryError(`Unknown timezone: ${shown(input.timezone)}`);
    timezone = zone;
  }
  const members = new Members();
  try {
    const measures = stringList(input.measures, 'measures', MAX_MEMBERS);
    for (const name of measures) members.resolve(name, 'measure');
    const dimensions = stringList(input.dimensions, 'dimensions', MAX_MEMBERS);
    for (const name of dimensions) members.resolve(name, 'dimension');
    const timeDimensions = timeDimensionsOf(input.timeDimensions, members, timezone, now);
    const filters = filtersOf(input.filters, members);
    if (!members.cube) throw new QueryError('The query names no member');
    if (measures.length === 0 && dimensions.length === 0 && !timeDimensions.some((td) => td.granularity)) {
      throw new QueryError(
        'Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid',
      );
    }
    const base = {
      measures: [...new Set(measures)],
      dimensions: [...new Set(dimensions)],
      timeDimensions,
      filters,
      limit: whole(input.limit, 'limit', DEFAULT_LIMIT, MAX_LIMIT),
      offset: whole(input.offset, 'offset', 0, 1_000_000_000),
      timezone,
    };
    return { ...base, order: orderOf(input.order, base), cube: members.cube };
  } catch (error) {
    if (error instanceof DateRangeError) throw new QueryError(error.message);
    throw error;
  }
}
