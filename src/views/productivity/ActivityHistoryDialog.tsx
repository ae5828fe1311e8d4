import { Button, Callout, Dialog, DialogBody, DialogFooter, HTMLTable, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { activityQuery } from '../../api/productivity';
import type { Activity } from '../../domain/schemas/productivity';
import { useApi } from '../session/SessionProvider';
import { failureText } from '../shared/serverMessage';
import { siteTimeText } from '../shared/siteTime';

interface ActivityHistoryDialogProps {
  siteId: number;
  activity: Activity;
  /** The site's time zone: each change is shown on the site's wall clock. */
  timeZone: string;
  onClose(): void;
}

/** Every status change of an activity, oldest first: when, from what to what, by whom and why. */
export function ActivityHistoryDialog({ siteId, activity, timeZone, onClose }: ActivityHistoryDialogProps) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const detail = useQuery(activityQuery(api, siteId, activity.id));
  const history = detail.data?.history ?? [];
  const status = (value: string) => t(`productivity.status.${value}`);

  let body: ReactElement;
  if (detail.isPending) body = <Spinner size={24} />;
  else if (detail.isError)
    body = (
      <Callout intent="danger" data-testid="activity-history-error">
        {failureText(detail.error, t('productivity.history.failed'), t)}
      </Callout>
    );
  else if (history.length === 0)
    body = <p data-testid="activity-history-empty">{t('productivity.history.none')}</p>;
  else
    body = (
      <HTMLTable compact striped className="sw-productivity-history" data-testid="activity-history">
        <thead>
          <tr>
            <th>{t('productivity.history.when')}</th>
            <th>{t('productivity.history.change')}</th>
            <th>{t('productivity.history.by')}</th>
            <th>{t('productivity.history.reason')}</th>
          </tr>
        </thead>
        <tbody>
          {history.map((entry) => (
            <tr
              key={`${entry.changed_at}-${entry.from_status}-${entry.to_status}`}
              data-testid="activity-history-entry"
              data-from={entry.from_status}
              data-to={entry.to_status}
            >
              <td>{siteTimeText(entry.changed_at, timeZone, i18n.language)}</td>
              <td>
                {t('productivity.history.fromTo', {
                  from: status(entry.from_status),
                  to: status(entry.to_status),
                })}
              </td>
              <td>{entry.changed_by_name ?? '—'}</td>
              <td data-testid="activity-history-reason">{entry.reason ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    );

  return (
    <Dialog
      isOpen
      className="sw-productivity-history-dialog"
      title={t('productivity.history.title', { name: activity.name })}
      onClose={onClose}
    >
      <DialogBody>{body}</DialogBody>
      <DialogFooter actions={<Button text={t('productivity.history.close')} onClick={onClose} />} />
    </Dialog>
  );
}
