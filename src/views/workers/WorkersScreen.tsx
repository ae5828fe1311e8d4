import './workers.css';
import { Button, HTMLSelect, InputGroup, Spinner, Tag } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { fetchAllWorkers, type WorkerFilters, type WorkerPage } from '../../api/workers/workerList';
import { nameListQuery } from '../../api/workforce/nameLists';
import { workshiftsQuery } from '../../api/workforce/workshifts';
import { can } from '../../domain/access';
import { formatCount } from '../../domain/numberFormat';
import { toWorkerDisplay, WORKER_STATUS_FILTERS, type WorkerStatus } from '../../domain/workers';
import { currentLocale } from '../../i18n';
import { SiteListBody } from '../lists/SiteListBody';
import { notify } from '../notify';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi, useSession } from '../session/SessionProvider';
import { useSelection } from '../shell/selection';
import { useWorkerWindow } from './useWorkerWindow';
import { type DrawerTarget, WorkerDrawer } from './WorkerDrawer';
import { type WorkerSort, WorkersTable } from './WorkersTable';
import { cellText, WORKER_COLUMNS } from './workerColumns';
import { buildWorkbook, exportFileName, saveFile } from './workersExport';

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
  const canCreate = role ? can(role, 'write', 'workerCreation') : false;
  const siteId = site?.id ?? 0;
  const locale = currentLocale();

  const [search, setSearch] = useState('');
  const settledSearch = useSettled(search, SEARCH_DELAY_MS);
  const [filters, setFilters] = useState<Omit<WorkerFilters, 'search'>>({});
  const [sort, setSort] = useState<WorkerSort>({ field: 'name', direction: 'asc' });
  const [drawer, setDrawer] = useState<DrawerTarget | null>(null);
  // On another site the roles, subcontractors, crews and shifts have other ids, and the open
  // worker is not there: those filters and the drawer go; the status filter and search stay.
  const [filtersSiteId, setFiltersSiteId] = useState(siteId);
  if (filtersSiteId !== siteId) {
    setFiltersSiteId(siteId);
    setFilters((current) => ({ status: current.status }));
    setDrawer(null);
  }

  const placeholder = t('workers.placeholder');
  const toRows = useCallback(
    (page: WorkerPage) => {
      const now = new Date();
      return page.rows.map((worker) => toWorkerDisplay(worker, { placeholder, now, locale }));
    },
    [placeholder, locale],
  );
  const query = { ...filters, search: settledSearch, sort };
  const list = useWorkerWindow(api, siteId, query, toRows);

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

  const statusText = useCallback(
    (status: string) =>
      status === 'active' || status === 'inactive' || status === 'offline'
        ? t(`workers.status.${status}`)
        : status,
    [t],
  );

  const [exportProgress, setExportProgress] = useState<{ fetched: number; total: number } | null>(null);
  const exporter = useMutation({
    mutationFn: async () => {
      setExportProgress(null);
      const all = await fetchAllWorkers(
        api,
        siteId,
        { ...filters, search: settledSearch, sort },
        { onProgress: (fetched, total) => setExportProgress({ fetched, total }) },
      );
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
        message: t('workers.exported', { formatted: formatCount(count) }),
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

  const total = list.total ?? 0;
  const anyFilter = settledSearch.trim() !== '' || Object.values(filters).some((value) => value != null);

  return (
    <section className="sw-workers" data-testid="workers-screen">
      <ScreenTitle>{t('screen.workers')}</ScreenTitle>
      <div className="sw-workers-toolbar">
        {/* The filters wrap among themselves; the count and the actions keep the first row. */}
        <div className="sw-workers-filters">
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
        </div>
        <div className="sw-workers-actions">
          {list.someFailed && (
            <Button
              intent="warning"
              minimal
              icon="refresh"
              text={t('workers.someRowsFailed')}
              onClick={() => void list.status.refetch()}
              data-testid="workers-retry-rows"
            />
          )}
          {list.total !== undefined && (
            <Tag minimal round data-testid="workers-count">
              {t('workers.count', { formatted: formatCount(total) })}
            </Tag>
          )}
          <Button
            icon={exporter.isPending ? <Spinner size={16} /> : 'export'}
            text={
              exporter.isPending
                ? exportProgress
                  ? t('workers.exportingProgress', {
                      fetched: formatCount(exportProgress.fetched),
                      total: formatCount(exportProgress.total),
                    })
                  : t('workers.exporting')
                : t('workers.export')
            }
            disabled={!site || total === 0 || exporter.isPending}
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
      </div>
      <SiteListBody
        noSite={t('workers.noSite')}
        list={list.status}
        isEmpty={total === 0}
        empty={{
          testId: 'workers-empty',
          icon: anyFilter ? 'search' : 'people',
          title: anyFilter ? t('workers.noMatches') : t('workers.empty'),
        }}
      >
        {() => (
          <WorkersTable
            // Another site, sort, search or filter shows its list from the top.
            key={JSON.stringify({ siteId, ...query })}
            rowCount={total}
            rowAt={list.rowAt}
            onVisibleRows={list.showRows}
            sort={sort}
            onSort={setSort}
            onOpen={(workerId) => setDrawer({ mode: 'view', workerId })}
            statusText={statusText}
          />
        )}
      </SiteListBody>
      {drawer && site && (
        <WorkerDrawer
          siteId={site.id}
          target={drawer}
          canWrite={canWrite}
          onClose={() => setDrawer(null)}
          onChanged={(workerId) => {
            void queryClient.invalidateQueries({ queryKey: queryKeys.workers.lists(site.id) });
            void queryClient.invalidateQueries({ queryKey: queryKeys.workers.unassignedHelmets(site.id) });
            if (workerId !== undefined) {
              void queryClient.invalidateQueries({ queryKey: queryKeys.workers.detail(site.id, workerId) });
              setDrawer({ mode: 'view', workerId });
            }
          }}
        />
      )}
    </section>
  );
}
