import './productivity.css';
import '../shared/reportScreen.css';
import { FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'wouter';
import {
  activitiesQuery,
  activityCodesQuery,
  changeActivities,
  delayCodesQuery,
} from '../../api/productivity';
import { queryKeys } from '../../api/queryKeys';
import { nameListQuery } from '../../api/workforce/nameLists';
import { can } from '../../domain/access';
import { ACTIVITY_STATUSES, type ActivityAction, isBookable } from '../../domain/activityStatus';
import { formatCount } from '../../domain/numberFormat';
import type {
  Activity,
  ActivityChange,
  ActivityChangeResult,
  NewDelay,
} from '../../domain/schemas/productivity';
import { selectCanSelect } from '../../machines/activityApproval.machine';
import { SiteListBody } from '../lists/SiteListBody';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi, useSession } from '../session/SessionProvider';
import { Pager } from '../shared/Pager';
import { useSelection } from '../shell/selection';
import { ActivitiesTable } from './ActivitiesTable';
import { ActivityHistoryDialog } from './ActivityHistoryDialog';
import { ApprovalPanel } from './ApprovalPanel';
import { type BookingDraft, type BookingField, changeOfDraft } from './activityBooking';
import { DelaysDialog } from './DelaysDialog';
import { ProductivityCharts } from './ProductivityCharts';
import {
  filtersFrom,
  listQueryOf,
  PER_PAGE,
  type ProductivityFilters,
  searchOf,
} from './productivityFilters';
import { RejectDialog } from './RejectDialog';
import { approvalRowOf, useActivityApproval } from './useActivityApproval';

type Dialog = { kind: 'delays' | 'reject' | 'history'; activityId: number } | null;

/** eTQR (/productivity): a site's activities with booking, delays, status actions, bulk approval and charts. */
export function ProductivityScreen() {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { site } = useSelection();
  const siteId = site?.id ?? 0;
  const role = user?.user_role;
  const canWrite = role ? can(role, 'write', 'productivity') : false;
  const mayOpen = (area: Parameters<typeof can>[2]) => (role ? can(role, 'open', area) : false);
  const rtl = i18n.dir() === 'rtl';

  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const listQuery = listQueryOf(filters);
  const list = useQuery({ ...activitiesQuery(api, siteId, listQuery), enabled: siteId > 0 });
  const crews = useQuery({ ...nameListQuery(api, siteId, 'crews'), enabled: siteId > 0 && mayOpen('crews') });
  const codes = useQuery({ ...activityCodesQuery(api, siteId), enabled: siteId > 0 });
  const delayCodes = useQuery({ ...delayCodesQuery(api, siteId), enabled: siteId > 0 && canWrite });
  const rows = list.data?.data;

  const approval = useActivityApproval(siteId, rows);
  const approvalSnapshot = approval.snapshot;
  const canSelect = useSelector(approval.actor, selectCanSelect);
  const selectedIds = useMemo(
    () => new Set(approvalSnapshot.context.selection.map((row) => row.id)),
    [approvalSnapshot.context.selection],
  );

  const [drafts, setDrafts] = useState<Record<number, BookingDraft>>({});
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [dialog, setDialog] = useState<Dialog>(null);

  const changes = useMutation({
    mutationFn: (batch: ActivityChange[]) => changeActivities(api, siteId, { changes: batch }),
    onSuccess: (results: ActivityChangeResult[]) => {
      setErrors((current) => {
        const next = { ...current };
        for (const result of results) {
          if (result.ok) delete next[result.id];
          else next[result.id] = result.message;
        }
        return next;
      });
      setDrafts((current) => {
        const next = { ...current };
        for (const result of results) if (result.ok) delete next[result.id];
        return next;
      });
      void queryClient.invalidateQueries({ queryKey: queryKeys.productivity.activities(siteId) });
    },
    onError: (error, batch) =>
      setErrors((current) => ({
        ...current,
        ...Object.fromEntries(batch.map((change) => [change.id, error.message])),
      })),
  });
  /** Sends one row's change; true when the server took it. */
  const sendChange = async (change: ActivityChange) => {
    try {
      const results = await changes.mutateAsync([change]);
      return results.some((result) => result.id === change.id && result.ok);
    } catch {
      return false;
    }
  };

  const setFilters = (next: Partial<ProductivityFilters>) =>
    setParams(searchOf({ ...filters, page: 1, ...next }), { replace: true });
  const pickDay = (key: 'from' | 'to', value: string) => {
    const next = { from: filters.from, to: filters.to, [key]: value };
    // The other end follows a day picked past it, so the range is never upside down.
    if (next.from && next.to && next.from > next.to) next[key === 'from' ? 'to' : 'from'] = value;
    setFilters(next);
  };

  const onDraft = (activity: Activity, field: BookingField, text: string) =>
    setDrafts((current) => ({ ...current, [activity.id]: { ...current[activity.id], [field]: text } }));
  const onSave = (activity: Activity) => {
    const { change, invalid } = changeOfDraft(activity, drafts[activity.id] ?? {});
    if (invalid.length > 0) {
      setErrors((current) => ({
        ...current,
        [activity.id]: invalid
          .map((field) =>
            t('productivity.invalidNumber', { field: t(`productivity.columns.${FIELD_LABELS[field]}`) }),
          )
          .join(' '),
      }));
      return;
    }
    if (change) {
      void sendChange(change);
      return;
    }
    // Typed back to what is stored: nothing to send, and the last refusal no longer applies.
    setDrafts(({ [activity.id]: _draft, ...rest }) => rest);
    setErrors(({ [activity.id]: _error, ...rest }) => rest);
  };
  const onAction = (activity: Activity, action: ActivityAction) => {
    if (action === 'reject') setDialog({ kind: 'reject', activityId: activity.id });
    else if (action !== 'approve') void sendChange({ id: activity.id, version: activity.version, action });
  };
  const onSelect = (activity: Activity, selected: boolean) => {
    const current = approvalSnapshot.context.selection.filter((row) => row.id !== activity.id);
    approval.actor.send({
      type: 'selection.set',
      rows: selected ? [...current, approvalRowOf(activity)] : current,
    });
  };
  const onSelectAll = (selected: boolean) =>
    approval.actor.send({
      type: 'selection.set',
      rows: selected ? (rows ?? []).filter((row) => row.actions.includes('approve')).map(approvalRowOf) : [],
    });

  const open = dialog ? rows?.find((row) => row.id === dialog.activityId) : undefined;
  const page = filters.page;
  const total = list.data?.meta?.total ?? rows?.length ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const statusText = (status: string) => t(`productivity.status.${status}`);

  const filterSelect = (
    key: 'crewId' | 'codeId',
    label: string,
    options: readonly { id: number; name: string }[] | undefined,
  ) => (
    <FormGroup label={label} labelFor={`productivity-${key}`}>
      <HTMLSelect
        id={`productivity-${key}`}
        data-testid={`productivity-${key}`}
        value={filters[key] ?? ''}
        onChange={(event) =>
          setFilters({ [key]: event.currentTarget.value ? Number(event.currentTarget.value) : null })
        }
      >
        <option value="">{t('productivity.filters.all')}</option>
        {(options ?? []).map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );

  return (
    <section className="sw-report-screen" data-testid="productivity-screen">
      <ScreenTitle>{t('screen.productivity')}</ScreenTitle>
      <div className="sw-report-filters" data-testid="productivity-filters">
        <FormGroup
          label={t('productivity.filters.from')}
          labelFor="productivity-from"
          helperText={filters.from || filters.to ? undefined : t('productivity.filters.thisWeek')}
        >
          <InputGroup
            id="productivity-from"
            data-testid="productivity-from"
            type="date"
            value={filters.from}
            onValueChange={(value) => pickDay('from', value)}
          />
        </FormGroup>
        <FormGroup label={t('productivity.filters.to')} labelFor="productivity-to">
          <InputGroup
            id="productivity-to"
            data-testid="productivity-to"
            type="date"
            value={filters.to}
            onValueChange={(value) => pickDay('to', value)}
          />
        </FormGroup>
        {filterSelect('crewId', t('productivity.filters.crew'), crews.data)}
        <FormGroup label={t('productivity.filters.status')} labelFor="productivity-status">
          <HTMLSelect
            id="productivity-status"
            data-testid="productivity-status"
            value={filters.status ?? ''}
            onChange={(event) =>
              setFilters({
                status: ACTIVITY_STATUSES.find((status) => status === event.currentTarget.value) ?? null,
              })
            }
          >
            <option value="">{t('productivity.filters.all')}</option>
            {ACTIVITY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {statusText(status)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        {filterSelect(
          'codeId',
          t('productivity.filters.code'),
          codes.data?.map((code) => ({ id: code.id, name: `${code.code} — ${code.name}` })),
        )}
      </div>
      <SiteListBody
        noSite={t('productivity.noSite')}
        list={list}
        isEmpty={false}
        empty={{ testId: 'productivity-empty', icon: 'inbox', title: t('productivity.empty') }}
      >
        {() =>
          list.data && rows ? (
            <>
              {list.data.summary ? <ProductivityCharts summary={list.data.summary} rtl={rtl} /> : null}
              {canWrite ? (
                <ApprovalPanel snapshot={approvalSnapshot} send={(event) => approval.actor.send(event)} />
              ) : null}
              {rows.length === 0 ? (
                <p data-testid="productivity-empty">{t('productivity.empty')}</p>
              ) : (
                <ActivitiesTable
                  rows={rows}
                  canWrite={canWrite}
                  drafts={drafts}
                  errors={errors}
                  onDraft={onDraft}
                  onSave={onSave}
                  onAction={onAction}
                  onDelays={(activity) => setDialog({ kind: 'delays', activityId: activity.id })}
                  onHistory={(activity) => setDialog({ kind: 'history', activityId: activity.id })}
                  selectedIds={selectedIds}
                  canSelect={canWrite && canSelect}
                  onSelect={onSelect}
                  onSelectAll={onSelectAll}
                />
              )}
              <Pager
                page={page}
                pages={pages}
                onPage={(next) => setFilters({ page: next })}
                testId="productivity-pager"
                showSinglePage
                text={t('productivity.page', {
                  page: formatCount(page),
                  pages: formatCount(pages),
                  rows: formatCount(total),
                })}
              />
            </>
          ) : null
        }
      </SiteListBody>
      {open && dialog?.kind === 'delays' ? (
        <DelaysDialog
          activity={open}
          delayCodes={delayCodes.data ?? []}
          canEdit={canWrite && open.actions.length > 0 && isBookable(open.status)}
          pending={changes.isPending}
          error={errors[open.id] ?? null}
          onAdd={(delay: NewDelay) => sendChange({ id: open.id, version: open.version, add_delays: [delay] })}
          onRemove={(delayId) =>
            void sendChange({ id: open.id, version: open.version, remove_delay_ids: [delayId] })
          }
          onClose={() => setDialog(null)}
        />
      ) : null}
      {open && dialog?.kind === 'history' ? (
        <ActivityHistoryDialog
          siteId={siteId}
          activity={open}
          timeZone={site?.timezone ?? 'UTC'}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {open && dialog?.kind === 'reject' ? (
        <RejectDialog
          activity={open}
          pending={changes.isPending}
          error={errors[open.id] ?? null}
          onReject={async (reason) => {
            if (await sendChange({ id: open.id, version: open.version, action: 'reject', reason }))
              setDialog(null);
          }}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </section>
  );
}

const FIELD_LABELS: Record<BookingField, string> = {
  installed_quantity: 'installedQuantity',
  booked_hours: 'bookedHours',
  actual_hours: 'actualHours',
};
