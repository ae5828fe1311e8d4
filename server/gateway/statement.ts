import { type SQL, sql } from 'drizzle-orm';
import {
  type CubeDeclaration,
  type DimensionDeclaration,
  type MeasureDeclaration,
  type ResolvedMember,
  resolveMember,
} from './cubes';
import type { Filter, NormalisedQuery, TimeDimension } from './query';

/**
 * The SQL of a normalised query. SQL text comes only from the cube declarations and from the
 * fixed words below (granularities and directions are checked against their lists first); every
 * value the caller sent is a parameter. The caller's sites are a condition the query cannot
 * reach: it is ANDed outside the query's own filters.
 */

/** How each output column of the statement maps back to the query's members. */
export interface Column {
  alias: string;
  /** The keys the row carries it under (a time dimension at a granularity: both `X.t.day` and `X.t`). */
  keys: string[];
}

export interface Statement {
  sql: SQL;
  columns: Column[];
}

const LOCAL_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.MS'`;

function member(name: string): ResolvedMember {
  const resolved = resolveMember(name);
  // normaliseQuery resolved every name already.
  if (!resolved) throw new Error(`unresolved member ${name}`);
  return resolved;
}

function aggregate(declaration: MeasureDeclaration): string {
  const expression = declaration.sql ?? '*';
  switch (declaration.type) {
    case 'count':
      return `count(${expression})::float8`;
    case 'countDistinct':
      return `count(distinct ${expression})::float8`;
    case 'sum':
      return `coalesce(sum(${expression}), 0)::float8`;
    case 'avg':
      return `avg(${expression})::float8`;
    case 'min':
      return `min(${expression})::float8`;
    case 'max':
      return `max(${expression})::float8`;
  }
}

/** The member's expression: an aggregate for a measure, the column for a dimension. */
function expressionOf(resolved: ResolvedMember): SQL {
  return sql.raw(
    resolved.kind === 'measure'
      ? aggregate(resolved.declaration as MeasureDeclaration)
      : (resolved.declaration as DimensionDeclaration).sql,
  );
}

/** A local time of the query's zone as an instant. */
const instant = (local: string, timezone: string) => sql`(${local}::timestamp at time zone ${timezone})`;

function likePattern(value: string, operator: string): string {
  const escaped = value.replace(/[\\%_]/g, (c) => `\\${c}`);
  if (operator === 'startsWith') return `${escaped}%`;
  if (operator === 'endsWith') return `%${escaped}`;
  return `%${escaped}%`;
}

function condition(filter: Filter, timezone: string): SQL {
  if ('and' in filter)
    return sql`(${sql.join(
      filter.and.map((f) => condition(f, timezone)),
      sql` and `,
    )})`;
  if ('or' in filter)
    return sql`(${sql.join(
      filter.or.map((f) => condition(f, timezone)),
      sql` or `,
    )})`;
  const resolved = member(filter.member);
  const column = expressionOf(resolved);
  const isTime = resolved.type === 'time';
  const value = (text: string) =>
    isTime
      ? instant(text, timezone)
      : resolved.type === 'number'
        ? sql`${Number(text)}::float8`
        : sql`${text}`;
  const list = () => sql.join(filter.values.map(value), sql`, `);
  const [first, second] = filter.values;
  switch (filter.operator) {
    case 'equals':
      return sql`(${column} in (${list()}))`;
    case 'notEquals':
      return sql`(${column} is null or ${column} not in (${list()}))`;
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      return sql`(${sql.join(
        filter.values.map((v) => sql`${column} ilike ${likePattern(v, filter.operator)}`),
        sql` or `,
      )})`;
    case 'notContains':
      return sql`(${column} is null or not (${sql.join(
        filter.values.map((v) => sql`${column} ilike ${likePattern(v, 'contains')}`),
        sql` or `,
      )}))`;
    case 'gt':
    case 'afterDate':
      return sql`(${column} > ${value(first)})`;
    case 'gte':
    case 'afterOrOnDate':
      return sql`(${column} >= ${value(first)})`;
    case 'lt':
    case 'beforeDate':
      return sql`(${column} < ${value(first)})`;
    case 'lte':
    case 'beforeOrOnDate':
      return sql`(${column} <= ${value(first)})`;
    case 'set':
      return sql`(${column} is not null)`;
    case 'notSet':
      return sql`(${column} is null)`;
    case 'inDateRange':
      return sql`(${column} >= ${value(first)} and ${column} <= ${value(second)})`;
    case 'notInDateRange':
      return sql`(${column} is null or ${column} < ${value(first)} or ${column} > ${value(second)})`;
  }
}

/** Whether a filter tree reads measures (HAVING) or dimensions (WHERE); mixing both is refused upstream. */
function readsMeasures(filter: Filter): boolean {
  if ('and' in filter) return filter.and.some(readsMeasures);
  if ('or' in filter) return filter.or.some(readsMeasures);
  return member(filter.member).kind === 'measure';
}

function readsDimensions(filter: Filter): boolean {
  if ('and' in filter) return filter.and.some(readsDimensions);
  if ('or' in filter) return filter.or.some(readsDimensions);
  return member(filter.member).kind === 'dimension';
}

/** A filter group mixing measures and dimensions cannot be WHERE nor HAVING (Cube refuses it too). */
export function mixedFilter(filters: readonly Filter[]): boolean {
  return filters.some((filter) => readsMeasures(filter) && readsDimensions(filter));
}

/** The joins the members need, with what they require, in declaration order. */
function joinsFor(cube: CubeDeclaration, names: readonly string[]): SQL {
  const needed = new Set<string>();
  const add = (join: string) => {
    if (needed.has(join) || !Object.hasOwn(cube.joins, join)) return;
    for (const required of cube.joins[join].requires ?? []) add(required);
    needed.add(join);
  };
  for (const name of names) for (const join of member(name).declaration.joins ?? []) add(join);
  const ordered = Object.keys(cube.joins).filter((join) => needed.has(join));
  return sql.raw(ordered.map((join) => cube.joins[join].sql).join('\n'));
}

function filterMembers(filters: readonly Filter[]): string[] {
  return filters.flatMap((filter) =>
    'and' in filter ? filterMembers(filter.and) : 'or' in filter ? filterMembers(filter.or) : [filter.member],
  );
}

function timeColumn(
  td: TimeDimension & { granularity: NonNullable<TimeDimension['granularity']> },
  timezone: string,
): SQL {
  return sql`to_char(date_trunc(${sql.raw(`'${td.granularity}'`)}, ${expressionOf(member(td.dimension))} at time zone ${timezone}), ${sql.raw(LOCAL_FORMAT)})`;
}

/** The statement for `query` on `cube`, limited to rows of `siteIds`. */
export function buildStatement(
  cube: CubeDeclaration,
  query: NormalisedQuery,
  siteIds: readonly number[],
): Statement {
  const { timezone } = query;
  const selections: SQL[] = [];
  const columns: Column[] = [];
  const groupBy: number[] = [];
  const aliasOf = new Map<string, string>();

  query.dimensions.forEach((name, index) => {
    const resolved = member(name);
    const alias = `d${index}`;
    const expression = expressionOf(resolved);
    const shownAs =
      resolved.type === 'time'
        ? sql`to_char(${expression} at time zone ${timezone}, ${sql.raw(LOCAL_FORMAT)})`
        : resolved.type === 'number'
          ? sql`(${expression})::float8`
          : expression;
    selections.push(sql`${shownAs} as ${sql.raw(alias)}`);
    columns.push({ alias, keys: [name] });
    groupBy.push(selections.length);
    aliasOf.set(name, alias);
  });
  query.timeDimensions.forEach((td, index) => {
    const granularity = td.granularity;
    if (!granularity) return;
    const alias = `t${index}`;
    selections.push(sql`${timeColumn({ ...td, granularity }, timezone)} as ${sql.raw(alias)}`);
    columns.push({ alias, keys: [`${td.dimension}.${granularity}`, td.dimension] });
    groupBy.push(selections.length);
    if (!aliasOf.has(td.dimension)) aliasOf.set(td.dimension, alias);
  });
  query.measures.forEach((name, index) => {
    const alias = `m${index}`;
    selections.push(sql`${expressionOf(member(name))} as ${sql.raw(alias)}`);
    columns.push({ alias, keys: [name] });
    aliasOf.set(name, alias);
  });

  const where: SQL[] = [sql`${sql.raw(cube.site)} = any(${sql.param([...siteIds])}::int[])`];
  if (cube.where) where.push(sql.raw(cube.where));
  for (const td of query.timeDimensions) {
    if (!td.dateRange) continue;
    const column = expressionOf(member(td.dimension));
    where.push(
      sql`${column} >= ${instant(td.dateRange[0], timezone)} and ${column} <= ${instant(td.dateRange[1], timezone)}`,
    );
  }
  const having: SQL[] = [];
  for (const filter of query.filters) {
    (readsMeasures(filter) ? having : where).push(condition(filter, timezone));
  }

  const used = [
    ...query.measures,
    ...query.dimensions,
    ...query.timeDimensions.map((td) => td.dimension),
    ...filterMembers(query.filters),
  ];
  const order = query.order
    .filter(([name]) => aliasOf.has(name))
    .map(([name, direction]) => sql.raw(`${aliasOf.get(name)} ${direction === 'desc' ? 'desc' : 'asc'}`));

  const statement = sql`select ${sql.join(selections, sql`, `)}
    from ${sql.raw(cube.from)}
    ${joinsFor(cube, used)}
    where ${sql.join(where, sql` and `)}
    ${groupBy.length ? sql.raw(`group by ${groupBy.join(', ')}`) : sql``}
    ${having.length ? sql`having ${sql.join(having, sql` and `)}` : sql``}
    ${order.length ? sql`order by ${sql.join(order, sql`, `)}` : sql``}
    limit ${query.limit} offset ${query.offset}`;
  return { sql: statement, columns };
}

/** A result row keyed by member names, as Cube's `data` carries them. */
export function rowOf(raw: Record<string, unknown>, columns: readonly Column[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const column of columns) {
    const value = raw[column.alias] ?? null;
    for (const key of column.keys) row[key] = value;
  }
  return row;
}
