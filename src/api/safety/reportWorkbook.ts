import { messages } from '../../domain/messages';
import { ApiError } from '../apiError';
import { safetyPaths } from './safetyPaths';

export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

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
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${REPORT_PATHS[format](sessionId)}`, {
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
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `evacuation-report.${format}`;
  return { blob: await response.blob(), fileName };
}
