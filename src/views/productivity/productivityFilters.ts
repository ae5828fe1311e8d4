import { ACTIVITY_STATUSES, type ActivityStatus } from '../../domain/activityStatus';
import type { ActivityListQuery } from '../../domain/schemas/productivity';

export const PER_PAGE = 50;

/** The filters the address keeps (?from=…&to=…&crew=…&status=…&code=…&page=…), so a reload keeps them. */
export interface ProductivityFilters {
  from: string;
  to: string;
  crewId: number | null;
  status: ActivityStatus | null;
  codeId: number | null;
  page: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const idOf = (text: string | null) => {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : null;
};

export function filtersFrom(params: URLSearchParams): ProductivityFilters {
  const day = (key: string) => {
    const value = params.get(key) ?? '';
    return DAY.test(value) ? value : '';
  };
  const status = params.get('status');
  return {
    from: day('from'),
    to: day('to'),
    crewId: idOf(params.get('crew')),
    status: ACTIVITY_STATUSES.find((known) => known === status) ?? null,
    codeId: idOf(params.get('code')),
    page: idOf(params.get('page')) ?? 1,
  };
}

export function searchOf(filters: ProductivityFilters): Record<string, string> {
  const search: Record<string, string> = {};
  if (filters.from) search.from = filters.from;
  if (filters.to) search.to = filters.to;
  if (filters.crewId !== null) search.crew = String(filters.crewId);
  if (filters.status !== null) search.status = filters.status;
  if (filters.codeId !== null) search.code = String(filters.codeId);
  if (filters.page > 1) search.page = String(filters.page);
  return search;
}

/** The list request of these filters; empty dates leave the server's default (this week). */
export function listQueryOf(filters: ProductivityFilters): ActivityListQuery {
  const query: ActivityListQuery = { page: filters.page, perPage: PER_PAGE };
  if (filters.from) query.from = filters.from;
  if (filters.to) query.to = filters.to;
  if (filters.crewId !== null) query.crew_id = filters.crewId;
  if (filters.status !== null) query.status = filters.status;
  if (filters.codeId !== null) query.activity_code_id = filters.codeId;
  return query;
}
