import { type DownloadedFile, fetchFile } from '../fileDownload';
import { safetyPaths } from './safetyPaths';

export type { DownloadedFile };

/** The report's downloadable forms: the workbook and the PDF. */
export type ReportFormat = 'xlsx' | 'pdf';

const REPORT_PATHS: Record<ReportFormat, (sessionId: string) => string> = {
  xlsx: safetyPaths.reportWorkbook,
  pdf: safetyPaths.reportPdf,
};

/** The report as an .xlsx or PDF file, fetched with the bearer token (a plain link could not send it). */
export async function fetchReportWorkbook(
  baseUrl: string,
  token: string | null,
  sessionId: string,
  format: ReportFormat = 'xlsx',
): Promise<DownloadedFile> {
  return fetchFile(`${baseUrl}${REPORT_PATHS[format](sessionId)}`, token, `evacuation-report.${format}`);
}
