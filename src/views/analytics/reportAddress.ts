/**
 * Where Analytics → Reports lives in the address: a query parameter on /analytics, not a route of
 * its own (spec's route list has /analytics and its three floor views only; docs/decisions.md
 * "Power BI reports"). `/analytics?view=reports` lists the reports; `&report=12` opens one, so a
 * reload or a shared link opens the same report.
 */
export const REPORTS_VIEW = 'reports';

export interface ReportAddress {
  reports: boolean;
  /** The opened report's id, or null when none is (or the parameter is no id). */
  reportId: number | null;
}

export function reportAddressOf(params: URLSearchParams): ReportAddress {
  const raw = params.get('report') ?? '';
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
  return { reports: params.get('view') === REPORTS_VIEW, reportId: id };
}

/** The query of the reports view with the report opened (none: null). */
export function reportSearch(reportId: number | null): Record<string, string> {
  return reportId === null ? { view: REPORTS_VIEW } : { view: REPORTS_VIEW, report: String(reportId) };
}

export const REPORTS_PATH = `/analytics?view=${REPORTS_VIEW}`;
