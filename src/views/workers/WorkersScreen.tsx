import './workers.css';
import { Button, HTMLSelect, InputGroup, Tag } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  fetchAllWorkers,
  type WorkerFilters,
  type WorkerListParams,
  workerPageQuery,
  workersKeys,
} from '../../api/workers';
import { nameListQuery, workshiftsQuery } from '../../api/workforce';
import { can } from '../../domain/access';
import { toWorkerDisplay, WORKER_STATUS_FILTERS, type WorkerStatus } from '../../domain/workers';
import { currentLocale } from '../../i18n';
import { SiteListBody } from '../lists/SiteListBody';
import { notify } from '../notify';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi, useSession } from '../session/SessionProvider';
import { useSelection } from '../shell/selection';
import { formatCount } from '../workforce/workforceForm';
import { type DrawerTarget, WorkerDrawer } from './WorkerDrawer';
import { type WorkerSort, WorkersTable } from './WorkersTable';
import { cellText, WORKER_COLUMNS } from './workerColumns';
import { buildWorkbook, exportFileName, saveFile } from './workersExport';

const PER_PAGE = 50;
const SEARCH_DELAY_MS = 300;

type FilterKey = 'roleId' | 'subcontractorId' | 'crewId' | 'workshiftId';

/** The search as typed, settled after a short pause so each key stroke is not a request. */
function useSettled(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** /workers: the site's workers, paged, sorted and searched by the server, with their panel. */
export function WorkersScreen() {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { site } = useSelection();
  const role = user?.user_role;
  const canWrite = role ? can(role, 'write', 'workers') : false;
  // A crew manager changes only the workers of their crews and adds none (DESIGN §4; the server refuses).
  const canCreate = canWrite && role !== 'crew-manager';
  const siteId = site?.id ?? 0;
  const locale = currentLocale();

  const [search, setSearch] = useState('');
  const settledSearch = useSettled(search, SEARCH_DELAY_MS);
  const [filters, setFilters] = useState<Omit<WorkerFilters, 'search'>>({});
  const [sort, setSort] = useState<WorkerSort>({ field: 'name', direction: 'asc' });
  const [page, setPage] = useState(1);
  const [drawer, setDrawer] = useState<DrawerTarget | null>(null);

  // A new search, filter or sort starts again at the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the page resets when these change
  useEffect(() => setPage(1), [settledSearch, filters, sort, siteId]);

  const params: WorkerListParams = { ...filters, search: settledSearch, sort, page, perPage: PER_PAGE };
  const list = useQuery({ ...workerPageQuery(api, siteId, params), enabled: siteId > 0 });

  // Filter lists: role and subcontractor lists are admin areas (DESIGN §4).
  const roles = useQuery({
    ...nameListQuery(api, siteId, 'worker-roles'),
    enabled: siteId > 0 && role !== undefined && can(role, 'open', 'workerRoles'),
  });
  const subcontractors = useQuery({
    ...nameListQuery(api, siteId, 'subcontractors'),
    enabled: siteId > 0 && role !== undefined && can(role, 'open', 'subcontractors'),
  });
  const crews = useQuery({
    ...nameListQuery(api, siteId, 'crews'),
    enabled: siteId > 0 && role !== undefined && can(role, 'open', 'crews'),
  });
  const shifts = useQuery({
    ...workshiftsQuery(api, siteId),
    enabled: siteId > 0 && role !== undefined && can(role, 'open', 'workshifts'),
  });

  const placeholder = t('workers.placeholder');
  const rows = useMemo(() => {
    const now = new Date();
    return (list.data?.rows ?? []).map((worker) => toWorkerDisplay(worker, { placeholder, now, locale }));
  }, [list.data, placeholder, locale]);

  const statusText = useCallback(
    (status: string) =>
      status === 'active' || status === 'inactive' || status === 'offline'
        ? t(`workers.status.${status}`)
        : status,
    [t],
  );

  const exporter = useMutation({
    mutationFn: async () => {
      const all = await fetchAllWorkers(api, siteId, { ...filters, search: settledSearch, sort });
      const now = new Date();
      const displays = all.map((worker) => toWorkerDisplay(worker, { placeholder, now, locale }));
      const columns = WORKER_COLUMNS.map((column) => ({
        header: t(`workers.column.${column.key}`),
        width: Math.round(column.width / 7),
        value: (row: (typeof displays)[number]) => cellText(row, column.key, statusText),
      }));
      const bytes = await buildWorkbook(t('screen.workers'), columns, displays, locale === 'ar');
      saveFile(bytes, exportFileName(site?.name ?? 'site', now));
      return displays.length;
    },
    onSuccess: (count) =>
      void notify({
        message: t('workers.exported', { formatted: formatCount(count, locale) }),
        intent: 'success',
      }),
    onError: (error) => void notify({ message: error.message, intent: 'danger' }),
  });

  const setFilter = (key: FilterKey, value: string) =>
    setFilters((current) => ({ ...current, [key]: value === '' ? null : Number(value) }));

  const filterSelect = (
    key: FilterKey,
    label: string,
    options: readonly { id: number; name: string }[] | undefined,
  ) =>
    options && (
      <HTMLSelect
        value={filters[key] == null ? '' : String(filters[key])}
        onChange={(event) => setFilter(key, event.currentTarget.value)}
        aria-label={label}
        data-testid={`workers-filter-${key}`}
      >
        <option value="">{label}</option>
        {options.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </HTMLSelect>
    );

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const anyFilter = settledSearch.trim() !== '' || Object.values(filters).some((value) => value != null);

  return (
    <section className="sw-workers" data-testid="workers-screen">
      <ScreenTitle>{t('screen.workers')}</ScreenTitle>
      <div className="sw-workers-toolbar">
        <InputGroup
          type="search"
          leftIcon="search"
          placeholder={t('workers.search')}
          value={search}
          onValueChange={setSearch}
          className="sw-workers-search"
          data-testid="workers-search"
        />
        {filterSelect('roleId', t('workers.filters.role'), roles.data)}
        {filterSelect('subcontractorId', t('workers.filters.subcontractor'), subcontractors.data)}
        {filterSelect('crewId', t('workers.filters.crew'), crews.data)}
        {filterSelect('workshiftId', t('workers.filters.shift'), shifts.data)}
        <HTMLSelect
          value={filters.status ?? ''}
          onChange={(event) =>
            setFilters((current) => ({
              ...current,
              status: event.currentTarget.value === '' ? null : (event.currentTarget.value as WorkerStatus),
            }))
          }
          aria-label={t('workers.filters.status')}
          data-testid="workers-filter-status"
        >
          <option value="">{t('workers.filters.status')}</option>
          {WORKER_STATUS_FILTERS.map((status) => (
            <option key={status} value={status}>
              {t(`workers.status.${status}`)}
            </option>
          ))}
        </HTMLSelect>
        {anyFilter && (
          <Button
            minimal
            icon="filter-remove"
            text={t('workers.filters.clear')}
            onClick={() => {
              setSearch('');
              setFilters({});
            }}
          />
        )}
        <span className="sw-workers-spacer" />
        {list.data && (
          <Tag minimal round data-testid="workers-count">
            {t('workers.count', { formatted: formatCount(total, locale) })}
          </Tag>
        )}
        <Button
          icon="export"
          text={exporter.isPending ? t('workers.exporting') : t('workers.export')}
          loading={exporter.isPending}
          disabled={!site || total === 0}
          onClick={() => exporter.mutate()}
          data-testid="workers-export"
        />
        {canCreate && site && (
          <Button
            intent="primary"
            icon="add"
            text={t('workers.new')}
            onClick={() => setDrawer({ mode: 'new' })}
            data-testid="workers-new"
          />
        )}
      </div>
      <SiteListBody
        noSite={t('workers.noSite')}
        list={list}
        isEmpty={rows.length === 0}
        empty={{
          testId: 'workers-empty',
          icon: anyFilter ? 'search' : 'people',
          title: anyFilter ? t('workers.noMatches') : t('workers.empty'),
        }}
      >
        {() => (
          <WorkersTable
            rows={rows}
            sort={sort}
            onSort={setSort}
            onOpen={(workerId) => setDrawer({ mode: 'view', workerId })}
            statusText={statusText}
          />
        )}
      </SiteListBody>
      {site && total > PER_PAGE && (
        <div className="sw-workers-pager">
          <Button
            icon={locale === 'ar' ? 'chevron-right' : 'chevron-left'}
            text={t('workers.previous')}
            disabled={page <= 1}
            onClick={() => setPage((p) => Math.max(1, p - 1))}
            data-testid="workers-previous"
          />
          <span data-testid="workers-page">
            {t('workers.pageOf', { page: formatCount(page, locale), pages: formatCount(pages, locale) })}
          </span>
          <Button
            rightIcon={locale === 'ar' ? 'chevron-left' : 'chevron-right'}
            text={t('workers.next')}
            disabled={page >= pages}
            onClick={() => setPage((p) => Math.min(pages, p + 1))}
            data-testid="workers-next"
          />
        </div>
      )}
      {drawer && site && (
        <WorkerDrawer
          siteId={site.id}
          target={drawer}
          canWrite={canWrite}
          onClose={() => setDrawer(null)}
          onChanged={(workerId) => {
            void queryClient.invalidateQueries({ queryKey: workersKeys.lists(site.id) });
            void queryClient.invalidateQueries({ queryKey: workersKeys.unassignedHelmets(site.id) });
            if (workerId !== undefined) {
              void queryClient.invalidateQueries({ queryKey: workersKeys.detail(site.id, workerId) });
              setDrawer({ mode: 'view', workerId });
            }
          }}
        />
      )}
    </section>
  );
}
