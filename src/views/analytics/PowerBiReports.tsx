import './powerBi.css';
import { Button, H2, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'wouter';
import { editPowerBiReport, type PowerBiReport, usePowerBiReports } from '../../api/powerBi';
import { queryKeys } from '../../api/queryKeys';
import { can } from '../../domain/access';
import type { Site } from '../../domain/user';
import { notify } from '../notify';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi, useSession } from '../session/SessionProvider';
import { ConfirmAlert } from '../shared/ConfirmAlert';
import { failureText } from '../shared/serverMessage';
import { AnalyticsNav } from './AnalyticsNav';
import { PowerBiReportDialog } from './PowerBiReportDialog';
import { PowerBiReportFrame } from './PowerBiReportFrame';
import { reportAddressOf, reportSearch } from './reportAddress';

/**
 * Analytics → Reports: the site's Power BI reports, one opened beside the list. Writers of
 * analytics (site admins and above) add, edit, deactivate and activate them; everyone else sees
 * the active ones only (the server leaves the others out).
 */
export function PowerBiReports({ site }: { site: Site }) {
  const { t } = useTranslation();
  const api = useApi();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const canWrite = user ? can(user.user_role, 'write', 'analytics') : false;
  const [params, setParams] = useSearchParams();
  const { reportId } = reportAddressOf(params);
  const reports = usePowerBiReports(api, site.id);
  const [editing, setEditing] = useState<PowerBiReport | 'new' | null>(null);
  const [deactivating, setDeactivating] = useState<PowerBiReport | null>(null);

  const list = reports.data ?? [];
  const opened = list.find((report) => report.id === reportId) ?? null;
  const open = (id: number | null) => setParams(reportSearch(id));
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.powerBi.bySite(site.id) });

  const toggle = useMutation({
    mutationFn: (report: PowerBiReport) =>
      editPowerBiReport(api, site.id, report.id, { is_active: !report.is_active }),
    onSuccess: ({ data }) => {
      const key = data.is_active ? 'analytics.reports.activated' : 'analytics.reports.deactivated';
      void notify({ message: t(key, { name: data.name }), intent: 'success' });
      setDeactivating(null);
      void refresh();
    },
    onError: (error) => {
      setDeactivating(null);
      void notify({ message: failureText(error, t('common.somethingWentWrong'), t), intent: 'danger' });
    },
  });

  let body: ReactNode;
  if (reports.isPending) body = <Spinner aria-label={t('common.loading')} />;
  else if (reports.isError)
    body = <NonIdealState icon="error" description={t('analytics.reports.loadError')} />;
  else if (list.length === 0)
    body = (
      <NonIdealState
        icon="chart"
        title={t('analytics.reports.none')}
        description={canWrite ? undefined : t('analytics.reports.noneDescription')}
      />
    );
  else
    body = (
      <ul className="sw-pbi-items" data-testid="power-bi-list">
        {list.map((report) => (
          <li
            key={report.id}
            className="sw-pbi-item"
            data-testid="power-bi-item"
            data-active={report.is_active}
          >
            <Button
              variant="minimal"
              alignText="start"
              fill
              active={report.id === opened?.id}
              aria-current={report.id === opened?.id ? 'page' : undefined}
              icon="chart"
              onClick={() => open(report.id)}
              data-testid="power-bi-open"
            >
              <bdi>{report.name}</bdi>
            </Button>
            {!report.is_active && (
              <Tag minimal intent="warning">
                {t('analytics.reports.inactive')}
              </Tag>
            )}
            {canWrite && (
              <span className="sw-pbi-item-actions">
                <Button
                  variant="minimal"
                  size="small"
                  icon="edit"
                  aria-label={t('analytics.reports.editReport', { name: report.name })}
                  title={t('analytics.reports.editReport', { name: report.name })}
                  onClick={() => setEditing(report)}
                  data-testid="power-bi-edit"
                />
                {report.is_active ? (
                  <Button
                    variant="minimal"
                    size="small"
                    icon="disable"
                    aria-label={t('analytics.reports.deactivateReport', { name: report.name })}
                    title={t('analytics.reports.deactivateReport', { name: report.name })}
                    onClick={() => setDeactivating(report)}
                    data-testid="power-bi-deactivate"
                  />
                ) : (
                  <Button
                    variant="minimal"
                    size="small"
                    icon="tick-circle"
                    aria-label={t('analytics.reports.activateReport', { name: report.name })}
                    title={t('analytics.reports.activateReport', { name: report.name })}
                    loading={toggle.isPending && toggle.variables?.id === report.id}
                    onClick={() => toggle.mutate(report)}
                    data-testid="power-bi-activate"
                  />
                )}
              </span>
            )}
          </li>
        ))}
      </ul>
    );

  return (
    <section className="sw-analytics" data-testid="power-bi-reports">
      <ScreenTitle>{t('screen.analytics')}</ScreenTitle>
      <AnalyticsNav />
      <div className="sw-pbi">
        <nav className="sw-pbi-list" aria-label={t('analytics.reports.list')}>
          <div className="sw-pbi-list-head">
            <H2 className="sw-pbi-title">{t('analytics.reports.title')}</H2>
            {canWrite && (
              <Button
                icon="add"
                intent="primary"
                text={t('analytics.reports.add')}
                onClick={() => setEditing('new')}
                data-testid="power-bi-add"
              />
            )}
          </div>
          {body}
        </nav>
        <div className="sw-pbi-view" data-testid="power-bi-view">
          {opened ? (
            <PowerBiReportFrame report={opened} />
          ) : (
            list.length > 0 && <NonIdealState icon="chart" description={t('analytics.reports.pick')} />
          )}
        </div>
      </div>
      {editing !== null && (
        <PowerBiReportDialog
          siteId={site.id}
          report={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refresh();
          }}
        />
      )}
      <ConfirmAlert
        isOpen={deactivating !== null}
        intent="danger"
        icon="disable"
        confirmText={t('analytics.reports.deactivate')}
        busy={toggle.isPending}
        escapeCancels
        onConfirm={() => deactivating && toggle.mutate(deactivating)}
        onCancel={() => setDeactivating(null)}
      >
        <p data-testid="power-bi-confirm">
          {t('analytics.reports.confirmDeactivate', { name: deactivating?.name ?? '' })}
        </p>
      </ConfirmAlert>
    </section>
  );
}
