import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  type AttendanceQuery,
  type AttendanceReport,
  AttendanceReportSchema,
} from '../domain/schemas/attendance';
import { type ApiClient, buildUrl, type Query } from './client';
import { fetchFile } from './fileDownload';
import { queryKeys } from './queryKeys';

export type { AttendanceQuery as AttendanceParams, AttendanceReport };

const dailyPath = (siteId: number) => `/sites/${siteId}/attendance/daily`;

function queryOf(params: AttendanceQuery): Query {
  const query: Query = {};
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') query[key] = value;
  return query;
}

/** One page of the daily attendance report, with the totals and headcount of the whole range. */
export function fetchAttendance(
  api: ApiClient,
  siteId: number,
  params: AttendanceQuery,
  signal?: AbortSignal,
): Promise<AttendanceReport> {
  return api.get(dailyPath(siteId), AttendanceReportSchema, { query: queryOf(params), signal });
}

export function attendanceQuery(api: ApiClient, siteId: number, params: AttendanceQuery) {
  return queryOptions({
    queryKey: queryKeys.attendance.daily(siteId, params),
    queryFn: ({ signal }) => fetchAttendance(api, siteId, params, signal),
    placeholderData: keepPreviousData,
  });
}

/** The report under the same filters as an .xlsx file, fetched with the bearer token. */
export async function fetchAttendanceWorkbook(
  source: { baseUrl: string; getToken(): string | null },
  siteId: number,
  params: AttendanceQuery,
): Promise<{ blob: Blob; fileName: string }> {
  const { page: _page, perPage: _perPage, ...filters } = params;
  return fetchFile(
    buildUrl(source.baseUrl, `${dailyPath(siteId)}/export`, queryOf(filters)),
    source.getToken(),
    'attendance.xlsx',
  );
}
