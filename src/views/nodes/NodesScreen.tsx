import { Button, H4, HTMLSelect, InputGroup, Tag } from '@blueprintjs/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteNodes } from '../../api/nodes';
import { NODE_HEALTH_STATES, NODE_TYPES, type NodeHealthState, type NodeType } from '../../domain/nodeHealth';
import { SiteListBody } from '../lists/SiteListBody';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi } from '../session/SessionProvider';
import { formatCount } from '../shared/nodeFormat';
import { HEALTH_INTENT } from '../shared/nodeProblems';
import { useSelection } from '../shell/selection';
import { DeviceTokensPanel } from './DeviceTokensPanel';
import { NodeHistoryPanel } from './NodeHistoryPanel';
import { NodesTable } from './NodesTable';
import {
  EMPTY_ROW_CACHE,
  filterRows,
  healthCounts,
  mergeRows,
  NO_NODE_FILTERS,
  type NodeColumnKey,
  type NodeFilters,
  type NodeSort,
  networksOf,
  nextSort,
  type RowCache,
  sortRows,
} from './nodeTable';
import './nodes.css';

/** Grouped by network, nodes in id order within each. */
const INITIAL_SORT: NodeSort = { column: 'networkId', direction: 'asc' };
/** How often the "updated" column's relative times move on. */
const CLOCK_MS = 1000;

interface FilterSelectProps<T extends string | number> {
  label: string;
  testId: string;
  /** The first option's text: no filter. */
  all: string;
  value: T | null;
  options: readonly { value: T; text: string }[];
  parse(raw: string): T;
  onChange(value: T | null): void;
}

/** One of the table's filters: every value, or one of `options`. */
function FilterSelect<T extends string | number>({
  label,
  testId,
  all,
  value,
  options,
  parse,
  onChange,
}: FilterSelectProps<T>) {
  return (
    <HTMLSelect
      aria-label={label}
      data-testid={testId}
      value={value ?? ''}
      onChange={(event) =>
        onChange(event.currentTarget.value === '' ? null : parse(event.currentTarget.value))
      }
    >
      <option value="">{all}</option>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.text}
        </option>
      ))}
    </HTMLSelect>
  );
}

function useClock(periodMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), periodMs);
    return () => clearInterval(timer);
  }, [periodMs]);
  return now;
}

/**
 * Nodes Management: the selected site's anchors and sinks (spec §3 Node) in a sortable, filterable
 * table that follows the network as it reports, one node's history below it once chosen, and the
 * site's device tokens (the gateways' credentials) at the end.
 */
export function NodesScreen() {
  const { t } = useTranslation();
  return (
    <section className="sw-nodes" data-testid="nodes-screen">
      <ScreenTitle>{t('screen.nodes')}</ScreenTitle>
      <SiteNodesSection />
      <DeviceTokensPanel />
    </section>
  );
}

function SiteNodesSection() {
  const { t } = useTranslation();
  const api = useApi();
  const { site } = useSelection();
  const siteId = site?.id ?? null;
  const list = useSiteNodes(api, siteId);
  const nodes = list.data?.siteId === siteId ? list.data.nodes : undefined;
  const [sort, setSort] = useState<NodeSort>(INITIAL_SORT);
  const [filters, setFilters] = useState<NodeFilters>(NO_NODE_FILTERS);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const nowMs = useClock(CLOCK_MS);
  const historyRef = useRef<HTMLDivElement>(null);

  // Rows of the latest reply, reusing the row of every node that shows the same as before.
  const cache = useRef<RowCache>(EMPTY_ROW_CACHE);
  const rows = useMemo(() => {
    if (!nodes) return [];
    cache.current = mergeRows(cache.current, nodes);
    return cache.current.rows;
  }, [nodes]);
  const shown = useMemo(() => sortRows(filterRows(rows, filters), sort), [rows, filters, sort]);
  const networks = useMemo(() => networksOf(nodes ?? []), [nodes]);
  const counts = useMemo(() => healthCounts(nodes ?? []), [nodes]);
  const selected = selectedId === null ? null : (nodes?.find((node) => node.nodeId === selectedId) ?? null);

  // A newly chosen node's chart comes into view below the table.
  useEffect(() => {
    if (selectedId !== null) historyRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [selectedId]);

  const setFilter = <K extends keyof NodeFilters>(key: K, value: NodeFilters[K]) =>
    setFilters((current) => ({ ...current, [key]: value }));
  const filtered = shown.length !== rows.length;

  return (
    <section className="sw-nodes-list" data-testid="nodes-list">
      <div className="sw-nodes-header">
        <H4>{t('nodes.title')}</H4>
        {nodes && (
          <div className="sw-nodes-counts" data-testid="nodes-counts">
            {NODE_HEALTH_STATES.map((state) => (
              <Tag key={state} minimal intent={HEALTH_INTENT[state]} data-testid={`nodes-count-${state}`}>
                {t(`nodes.health.${state}`)}: {formatCount(counts[state])}
              </Tag>
            ))}
          </div>
        )}
      </div>
      <SiteListBody
        noSite={t('nodes.noSite')}
        list={list}
        isEmpty={rows.length === 0}
        empty={{
          testId: 'nodes-empty',
          icon: 'cell-tower',
          title: t('nodes.empty'),
          description: t('nodes.emptyHint'),
        }}
      >
        {() => (
          <>
            <div className="sw-nodes-filters">
              <FilterSelect
                label={t('nodes.filter.network')}
                testId="nodes-filter-network"
                all={t('nodes.filter.allNetworks')}
                value={filters.networkId}
                options={networks.map((id) => ({ value: id, text: t('nodes.filter.networkOption', { id }) }))}
                parse={Number}
                onChange={(value) => setFilter('networkId', value)}
              />
              <FilterSelect
                label={t('nodes.filter.type')}
                testId="nodes-filter-type"
                all={t('nodes.filter.allTypes')}
                value={filters.type}
                options={NODE_TYPES.map((type) => ({ value: type, text: t(`nodes.type.${type}`) }))}
                parse={(raw) => raw as NodeType}
                onChange={(value) => setFilter('type', value)}
              />
              <FilterSelect
                label={t('nodes.filter.health')}
                testId="nodes-filter-health"
                all={t('nodes.filter.allStates')}
                value={filters.health}
                options={NODE_HEALTH_STATES.map((state) => ({
                  value: state,
                  text: t(`nodes.health.${state}`),
                }))}
                parse={(raw) => raw as NodeHealthState}
                onChange={(value) => setFilter('health', value)}
              />
              <InputGroup
                className="sw-nodes-search"
                type="search"
                leftIcon="search"
                aria-label={t('nodes.filter.search')}
                placeholder={t('nodes.filter.search')}
                data-testid="nodes-search"
                value={filters.search}
                onValueChange={(value) => setFilter('search', value)}
              />
              {filtered && (
                <Button
                  variant="minimal"
                  icon="filter-remove"
                  text={t('nodes.filter.clear')}
                  onClick={() => setFilters(NO_NODE_FILTERS)}
                />
              )}
              <span className="sw-nodes-shown bp6-text-muted" data-testid="nodes-shown" aria-live="polite">
                {t('nodes.shown', { shown: formatCount(shown.length), total: formatCount(rows.length) })}
              </span>
            </div>
            <NodesTable
              rows={shown}
              sort={sort}
              onSort={(column: NodeColumnKey) => setSort((current) => nextSort(current, column))}
              onOpen={setSelectedId}
              nowMs={nowMs}
              timeZone={site?.timezone}
            />
            <div ref={historyRef}>
              {selected && siteId !== null && (
                <NodeHistoryPanel
                  key={selected.nodeId}
                  siteId={siteId}
                  node={selected}
                  timeZone={site?.timezone}
                  onClose={() => setSelectedId(null)}
                />
              )}
            </div>
          </>
        )}
      </SiteListBody>
    </section>
  );
}
