import type { IncidentStatus } from '../../domain/incidents';

/**
 * The safety listener's REST paths (spec §7 "Safety service"). A client of these calls has the
 * safety listener's origin as its base URL (`liveUrl` of liveSettings.ts, as the live socket).
 */

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
  reportPdf: (sessionId: string) => `/api/safety/evacuations/${encodeURIComponent(sessionId)}/report.pdf`,
  drillFigures: (siteId: number) => `/api/safety/sites/${siteId}/evacuations/figures`,
} as const;
