import './maintenanceToolkit.css';
import { Button, Card, H4, HTMLTable, Icon, Tag } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useSiteNodes } from '../../api/nodes';
import { can } from '../../domain/access';
import { compareHealthWorstFirst, NODE_PROBLEM_KINDS, type NodeProblemKind } from '../../domain/nodeHealth';
import type { SiteNode } from '../../domain/schemas/nodes';
import { SiteListBody } from '../lists/SiteListBody';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi, useSession } from '../session/SessionProvider';
import { formatCount } from '../shared/nodeFormat';
import { HEALTH_INTENT, problemWords } from '../shared/nodeProblems';
import { useSelection } from '../shell/selection';
import { MaintenanceToolkitSettings } from './MaintenanceToolkitSettings';

/** Rows drawn at first; the rest on "Show all" (a network in trouble can have hundreds). */
const FIRST_ROWS = 100;

/**
 * The nodes whose health is not ok, worst first (the health rule's own order, then node id).
 * Anchors still awaiting approval are installation's to judge (its Approval tab), not maintenance's.
 */
export function nodesNeedingAttention(nodes: readonly SiteNode[]): SiteNode[] {
  return nodes
    .filter((node) => node.type !== 'anchor' || node.isApproved)
    .filter((node) => node.health.state !== 'ok')
    .sort((a, b) => compareHealthWorstFirst(a.health, b.health) || a.nodeId.localeCompare(b.nodeId));
}

/** How many of those nodes have a problem of each kind. */
export function problemCounts(nodes: readonly SiteNode[]): Record<NodeProblemKind, number> {
  const counts = Object.fromEntries(NODE_PROBLEM_KINDS.map((kind) => [kind, 0])) as Record<
    NodeProblemKind,
    number
  >;
  for (const node of nodes) {
    for (const kind of new Set(node.health.problems.map((problem) => problem.kind))) counts[kind] += 1;
  }
  return counts;
}

/** The Map View at the node: its floor, the node picked out. */
export function mapViewHref(node: Pick<SiteNode, 'floorId' | 'nodeId'>): string | null {
  if (node.floorId === null) return null;
  const query = new URLSearchParams({ floorId: String(node.floorId), nodeId: node.nodeId });
  return `/maintenance/map?${query}`;
}

/**
 * Maintenance Toolkit: the selected site's anchors and sinks that need attention, worst first,
 * each with its problems in words and a link to it on the Map View; how many have each kind of
 * problem; and, for those who may change it, the site's anchor-moved threshold.
 */
export function MaintenanceToolkitScreen() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { site } = useSelection();
  const canWrite = user ? can(user.user_role, 'write', 'maintenance') : false;
  return (
    <section className="sw-maintenance" data-testid="maintenance-screen">
      <ScreenTitle>{t('screen.maintenance')}</ScreenTitle>
      <AttentionList />
      {site && canWrite && <MaintenanceToolkitSettings key={site.id} siteId={site.id} />}
    </section>
  );
}

function AttentionList() {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const { site } = useSelection();
  const siteId = site?.id ?? null;
  const list = useSiteNodes(api, siteId);
  const nodes = list.data?.siteId === siteId ? list.data.nodes : undefined;
  const attention = useMemo(() => nodesNeedingAttention(nodes ?? []), [nodes]);
  const counts = useMemo(() => problemCounts(attention), [attention]);
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? attention : attention.slice(0, FIRST_ROWS);
  const context = { t, language: i18n.language, timeZone: site?.timezone };

  return (
    <section className="sw-maintenance-attention" data-testid="maintenance-attention">
      {nodes && (
        <div className="sw-maintenance-counts" data-testid="maintenance-counts">
          <Card
            className="sw-maintenance-count sw-maintenance-count--total"
            data-testid="maintenance-count-total"
          >
            <span className="sw-maintenance-count-figure">{formatCount(attention.length)}</span>
            <span>{t('nodes.maintenance.needAttention', { total: formatCount(nodes.length) })}</span>
          </Card>
          {NODE_PROBLEM_KINDS.map((kind) => (
            <Card
              key={kind}
              className={`sw-maintenance-count${counts[kind] > 0 ? ' sw-maintenance-count--some' : ''}`}
              data-testid={`maintenance-count-${kind}`}
            >
              <span className="sw-maintenance-count-figure">{formatCount(counts[kind])}</span>
              <span>{t(`nodes.problemKind.${kind}`)}</span>
            </Card>
          ))}
        </div>
      )}
      <SiteListBody
        noSite={t('nodes.noSite')}
        list={list}
        isEmpty={attention.length === 0}
        empty={{
          testId: 'maintenance-all-healthy',
          icon: 'tick-circle',
          title: t('nodes.maintenance.allHealthy'),
          description: t('nodes.maintenance.allHealthyHint', { total: formatCount(nodes?.length ?? 0) }),
        }}
      >
        {() => (
          <>
            <H4>{t('nodes.maintenance.listTitle')}</H4>
            <HTMLTable className="sw-maintenance-table" striped data-testid="maintenance-list">
              <thead>
                <tr>
                  <th>{t('nodes.column.health')}</th>
                  <th>{t('nodes.column.nodeId')}</th>
                  <th>{t('nodes.maintenance.place')}</th>
                  <th>{t('nodes.maintenance.problems')}</th>
                  <th>
                    <span className="bp6-text-muted">{t('nodes.maintenance.map')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((node) => {
                  const href = mapViewHref(node);
                  return (
                    <tr key={node.id} data-testid="maintenance-row" data-node-id={node.nodeId}>
                      <td>
                        <Tag intent={HEALTH_INTENT[node.health.state]} data-testid="maintenance-health">
                          {t(`nodes.health.${node.health.state}`)}
                        </Tag>
                      </td>
                      <td>
                        <strong className="sw-maintenance-node-id">{node.nodeId}</strong>
                        <div className="bp6-text-muted">{t(`nodes.type.${node.type}`)}</div>
                      </td>
                      <td>
                        {[node.buildingName, node.floorName].filter(Boolean).join(' · ') ||
                          t('nodes.maintenance.notPlaced')}
                      </td>
                      <td>
                        <ul className="sw-maintenance-problems">
                          {node.health.problems.map((problem) => (
                            <li
                              key={problem.kind}
                              className={`sw-maintenance-problem sw-maintenance-problem--${problem.state}`}
                              data-testid="maintenance-problem"
                              data-kind={problem.kind}
                            >
                              <Icon
                                icon={problem.state === 'bad' ? 'error' : 'warning-sign'}
                                intent={problem.state === 'bad' ? 'danger' : 'warning'}
                                size={12}
                              />
                              {problemWords(problem, node.forecast, context)}
                            </li>
                          ))}
                        </ul>
                      </td>
                      <td>
                        {href ? (
                          <Link
                            href={href}
                            className="sw-maintenance-map-link"
                            data-testid="maintenance-map-link"
                          >
                            <Icon icon="map" size={12} /> {t('nodes.maintenance.showOnMap')}
                          </Link>
                        ) : (
                          <span className="bp6-text-muted">{t('nodes.maintenance.notPlaced')}</span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </HTMLTable>
            {shown.length < attention.length && (
              <Button
                text={t('nodes.maintenance.showAll', { number: formatCount(attention.length) })}
                data-testid="maintenance-show-all"
                onClick={() => setShowAll(true)}
              />
            )}
          </>
        )}
      </SiteListBody>
    </section>
  );
}
