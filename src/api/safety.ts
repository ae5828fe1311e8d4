import { queryOptions } from '@tanstack/react-query';
import type { Evacuation, SafetyWorker } from '../domain/evacuation';
import type { EvacuationReport, EvacuationSessionSummary } from '../domain/evacuationReport';
import {
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  type IncidentStatus,
  type SafetyIncident,
} from '../domain/incidents';
import { messages } from '../domain/messages';
import { type SafetyDemoStatus, safetyDemoPath, safetyDrillPath } from '../domain/safetyDemo';
import { ApiError } from './apiError';
import type { ApiClient } from './client';
import { type LiveSettings, liveUrl } from './live';

/**
 * Typed clients of the safety listener's REST calls (spec §7 "Safety service"): the evacuation
 * screen's networks and workers, incidents and their escalation, past evacuations and their
 * reports, and the safety demo's drill. `api` is a client whose base URL is the safety listener's
 * origin: `safetyBaseUrl` finds it the way the live socket does, from GET /api/live-settings.
 */

/** The safety listener on the page's own host (the console is served from PORT, it listens on SAFETY_PORT). */
export function safetyBaseUrl(
  location: Pick<Location, 'protocol' | 'hostname'>,
  settings: LiveSettings,
): string {
  return liveUrl(location, settings);
}

export interface SafetyNetwork {
  id: number;
  name: string;
}

export interface IncidentQuery {
  siteId: number;
  /** ISO date (a whole UTC day from its start) or date-time (UTC unless it carries an offset). */
  from: string;
  /** ISO date (to the end of that UTC day) or date-time (that instant included). */
  to: string;
  status?: IncidentStatus | null;
}

export const safetyPaths = {
  getWorkers: '/api/safety/getworkers',
  incidents: ({ siteId, from, to, status }: IncidentQuery) =>
    `/api/safety/incident/getAll/${siteId}/${encodeURIComponent(from)}/${encodeURIComponent(to)}${status ? `/${status}` : ''}`,
  escalate: '/api/safety/incident/escelate',
  networks: (siteId: number) => `/api/safety/sites/${siteId}/networks`,
  evacuations: (siteId: number) => `/api/safety/sites/${siteId}/evacuations`,
  report: (sessionId: string) => `/api/safety/evacuations/${encodeURIComponent(sessionId)}/report`,
  reportWorkbook: (sessionId: string) =>
    `/api/safety/evacuations/${encodeURIComponent(sessionId)}/report.xlsx`,
} as const;

function replyError(): ApiError {
  return new ApiError({ kind: 'reply', message: messages.somethingWentWrongContactSupport });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isSafetyWorker(value: unknown): value is SafetyWorker {
  return (
    isObject(value) &&
    typeof value.inventory_id === 'number' &&
    typeof value.is_online === 'boolean' &&
    typeof value.isIncludedEvacuation === 'boolean' &&
    typeof value.isSafe === 'boolean' &&
    typeof value.status === 'string'
  );
}

function isIncident(value: unknown): value is SafetyIncident {
  return (
    isObject(value) &&
    typeof value.id === 'number' &&
    (INCIDENT_TYPES as readonly unknown[]).includes(value.type) &&
    (INCIDENT_STATUSES as readonly unknown[]).includes(value.status) &&
    typeof value.ts === 'string'
  );
}

function isNetwork(value: unknown): value is SafetyNetwork {
  return isObject(value) && typeof value.id === 'number' && typeof value.name === 'string';
}

function isSessionSummary(value: unknown): value is EvacuationSessionSummary {
  return (
    isObject(value) &&
    typeof value.evacuationSessionId === 'string' &&
    typeof value.startedAt === 'string' &&
    isObject(value.counts)
  );
}

function isReport(value: unknown): value is EvacuationReport {
  return (
    isObject(value) &&
    typeof value.evacuationSessionId === 'string' &&
    Array.isArray(value.workers) &&
    Array.isArray(value.neverAccounted) &&
    isObject(value.countsAtEnd)
  );
}

function listOf<T>(data: unknown, check: (item: unknown) => item is T): T[] {
  if (!Array.isArray(data) || !data.every(check)) throw replyError();
  return data;
}

/** POST /api/safety/getworkers: a floor's helmets of one network, with the evacuation fields. */
export async function fetchSafetyWorkers(
  api: ApiClient,
  body: { networkId: number; blueprintId: number },
  signal?: AbortSignal,
): Promise<SafetyWorker[]> {
  return listOf(await api.post<unknown>(safetyPaths.getWorkers, body, { signal }), isSafetyWorker);
}

/** GET /api/safety/incident/getAll/{siteId}/{from}/{to}/{status?}: newest first. */
export async function fetchSafetyIncidents(
  api: ApiClient,
  query: IncidentQuery,
  signal?: AbortSignal,
): Promise<SafetyIncident[]> {
  const { data } = await api.list<unknown>(safetyPaths.incidents(query), { signal });
  return listOf(data, isIncident);
}

/** POST /api/safety/incident/escelate (the spec's spelling): the escalated incident. */
export async function escalateSafetyIncident(api: ApiClient, incidentId: number): Promise<SafetyIncident> {
  const data = await api.post<unknown>(safetyPaths.escalate, { incidentId });
  if (!isIncident(data)) throw replyError();
  return data;
}

/** GET /api/safety/sites/{siteId}/networks: the gateways of the start dialog. */
export async function fetchSafetyNetworks(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<SafetyNetwork[]> {
  const { data } = await api.list<unknown>(safetyPaths.networks(siteId), { signal });
  return listOf(data, isNetwork);
}

/** GET /api/safety/sites/{siteId}/evacuations: past and running sessions, newest first. */
export async function fetchEvacuationSessions(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<EvacuationSessionSummary[]> {
  const { data } = await api.list<unknown>(safetyPaths.evacuations(siteId), { signal });
  return listOf(data, isSessionSummary);
}

/** GET /api/safety/evacuations/{sessionId}/report. */
export async function fetchEvacuationReport(
  api: ApiClient,
  sessionId: string,
  signal?: AbortSignal,
): Promise<EvacuationReport> {
  const data = await api.get<unknown>(safetyPaths.report(sessionId), { signal });
  if (!isReport(data)) throw replyError();
  return data;
}

export const safetyKeys = {
  all: ['safety'] as const,
  incidents: (query: IncidentQuery) => ['safety', 'incidents', query] as const,
  /** Every incident list, whatever its window: what a new incident or an escalation refreshes. */
  allIncidents: ['safety', 'incidents'] as const,
  evacuations: (siteId: number) => ['safety', 'evacuations', siteId] as const,
  report: (sessionId: string) => ['safety', 'report', sessionId] as const,
  demo: (siteId: number) => ['safety', 'demo', siteId] as const,
  networks: (siteId: number) => ['safety', 'networks', siteId] as const,
  workers: (networkId: number, floorId: number) => ['safety', 'workers', networkId, floorId] as const,
};

export function safetyNetworksQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: safetyKeys.networks(siteId),
    queryFn: ({ signal }) => fetchSafetyNetworks(api, siteId, signal),
    staleTime: 60_000,
  });
}

export function safetyWorkersQuery(api: ApiClient, networkId: number, floorId: number) {
  return queryOptions({
    queryKey: safetyKeys.workers(networkId, floorId),
    queryFn: ({ signal }) => fetchSafetyWorkers(api, { networkId, blueprintId: floorId }, signal),
  });
}

export function incidentsQuery(api: ApiClient, query: IncidentQuery) {
  return queryOptions({
    queryKey: safetyKeys.incidents(query),
    queryFn: ({ signal }) => fetchSafetyIncidents(api, query, signal),
  });
}

export function evacuationsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: safetyKeys.evacuations(siteId),
    queryFn: ({ signal }) => fetchEvacuationSessions(api, siteId, signal),
  });
}

export function evacuationReportQuery(api: ApiClient, sessionId: string) {
  return queryOptions({
    queryKey: safetyKeys.report(sessionId),
    queryFn: ({ signal }) => fetchEvacuationReport(api, sessionId, signal),
  });
}

export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/** The report as an .xlsx file, fetched with the bearer token (a plain link could not send it). */
export async function fetchReportWorkbook(
  baseUrl: string,
  token: string | null,
  sessionId: string,
): Promise<DownloadedFile> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${safetyPaths.reportWorkbook(sessionId)}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
  } catch (error) {
    throw new ApiError({ kind: 'network', message: messages.offline, cause: error });
  }
  if (!response.ok) {
    const reply = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError({
      kind: 'http',
      status: response.status,
      message: reply?.message || messages.somethingWentWrongContactSupport,
    });
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'evacuation-report.xlsx';
  return { blob: await response.blob(), fileName };
}

export function safetyDemoQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: safetyKeys.demo(siteId),
    queryFn: ({ signal }) => api.get<SafetyDemoStatus>(safetyDemoPath(siteId), { signal }),
  });
}

export function runSafetyDrill(api: ApiClient, siteId: number): Promise<Evacuation> {
  return api.post<Evacuation>(safetyDrillPath(siteId));
}
