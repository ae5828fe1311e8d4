import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fetchReportWorkbook, type ReportFormat } from '../../../api/safety/reportWorkbook';
import { messages } from '../../../domain/messages';
import { notify } from '../../notify';
import { useTokenSource } from '../../session/SessionProvider';
import { saveFile } from '../../shared/saveFile';

/** Downloads an evacuation's report (workbook or PDF) from the safety service, with a toast either way. */
export function useReportDownload(
  baseUrl: string | null,
  sessionId: string | null,
  format: ReportFormat = 'xlsx',
) {
  const { t } = useTranslation();
  const { getToken } = useTokenSource();
  return useMutation({
    mutationFn: () => {
      // The safety service's address is not known yet: as if offline.
      if (!baseUrl || !sessionId) throw new Error(messages.offline);
      return fetchReportWorkbook(baseUrl, getToken(), sessionId, format);
    },
    onSuccess: ({ blob, fileName }) => {
      saveFile(blob, fileName);
      void notify({ message: t('safety.report.exported'), intent: 'success', timeout: 2000 });
    },
    onError: (error) => void notify({ message: error.message, intent: 'danger' }),
  });
}
