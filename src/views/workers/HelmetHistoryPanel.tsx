import { Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { WorkerHelmetHistoryEntry } from '../../domain/workers';
import { currentLocale } from '../../i18n';
import { helmetHistoryRows } from './lastSeen';

interface HelmetHistoryPanelProps {
  /** Newest first, as the nested worker carries it. */
  history: readonly WorkerHelmetHistoryEntry[];
}

/** Every helmet the worker has worn: which one, from when, until when (or "current"). */
export function HelmetHistoryPanel({ history }: HelmetHistoryPanelProps) {
  const { t } = useTranslation();
  const rows = helmetHistoryRows(history, currentLocale());
  return (
    <section className="sw-worker-section" data-testid="worker-helmet-history">
      <h3 className="bp6-heading">{t('workers.helmetHistory.title')}</h3>
      {rows.length === 0 ? (
        <p className="bp6-text-muted" data-testid="worker-helmet-history-empty">
          {t('workers.helmetHistory.empty')}
        </p>
      ) : (
        <table className="bp6-html-table bp6-compact sw-worker-history">
          <thead>
            <tr>
              <th scope="col">{t('workers.helmetHistory.helmet')}</th>
              <th scope="col">{t('workers.helmetHistory.from')}</th>
              <th scope="col">{t('workers.helmetHistory.to')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} data-testid="worker-helmet-history-row">
                <td>{row.helmet}</td>
                <td>{row.from}</td>
                <td>
                  {row.to ?? (
                    <Tag minimal intent="success" round>
                      {t('workers.helmetHistory.current')}
                    </Tag>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
