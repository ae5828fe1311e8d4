import { HTMLTable } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { formatCount, formatHoursOrNA } from '../../domain/numberFormat';
import type { SubcontractorTotal } from '../../domain/schemas/attendance';

/** What each subcontractor's workers add up to over the range: what a site pays for. */
export function SubcontractorTotals({ totals }: { totals: readonly SubcontractorTotal[] }) {
  const { t } = useTranslation();
  if (totals.length === 0) return <p>{t('attendance.empty')}</p>;
  return (
    <div className="sw-attendance-table-wrap">
      <HTMLTable compact striped className="sw-attendance-table" data-testid="attendance-totals">
        <thead>
          <tr>
            <th>{t('attendance.columns.subcontractor')}</th>
            <th className="sw-attendance-number">{t('attendance.totals.workers')}</th>
            <th className="sw-attendance-number">{t('attendance.totals.present')}</th>
            <th className="sw-attendance-number">{t('attendance.totals.absent')}</th>
            <th className="sw-attendance-number">{t('attendance.columns.overtime')}</th>
            <th className="sw-attendance-number">{t('attendance.columns.effective')}</th>
          </tr>
        </thead>
        <tbody>
          {totals.map((total) => (
            <tr key={String(total.subcontractor_id)} data-testid="attendance-total">
              <td>{total.subcontractor_name ?? t('attendance.totals.none')}</td>
              <td className="sw-attendance-number">{formatCount(total.workers)}</td>
              <td className="sw-attendance-number">{formatCount(total.present_days)}</td>
              <td className="sw-attendance-number">{formatCount(total.absent_days)}</td>
              <td className="sw-attendance-number">{formatHoursOrNA(total.overtime_hours)}</td>
              <td className="sw-attendance-number">{formatHoursOrNA(total.effective_hours)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
