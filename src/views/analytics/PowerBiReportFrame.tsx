import { NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { PowerBiReport } from '../../api/powerBi';
import { frameableEmbedUrl, POWER_BI_FRAME_SANDBOX } from '../../domain/powerBi';

/**
 * One report in a sandboxed <iframe>. The stored link passes the embed URL rule again first: what
 * the server once accepted is not trusted to still be a Power BI link (a row written by hand, an
 * older rule).
 */
export function PowerBiReportFrame({ report }: { report: PowerBiReport }) {
  const { t } = useTranslation();
  const src = frameableEmbedUrl(report.embed_url);
  if (src === null) {
    return <NonIdealState icon="shield" description={t('analytics.reports.notFramed')} />;
  }
  return (
    <iframe
      key={src}
      className="sw-pbi-frame"
      src={src}
      title={report.name}
      sandbox={POWER_BI_FRAME_SANDBOX}
      referrerPolicy="no-referrer"
      loading="lazy"
      allowFullScreen
      data-testid="power-bi-frame"
    />
  );
}
