import { Button, ButtonGroup, Callout, Card, H4, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNodeHistory } from '../../api/nodes';
import type { NodeHealthState } from '../../domain/nodeHealth';
import type { NodeHistory, SiteNode } from '../../domain/schemas/nodes';
import { useApi } from '../session/SessionProvider';
import { formatAxisTime, formatSilence, formatTwoDecimals, formatWhole } from '../shared/nodeFormat';
import { forecastWords, HEALTH_INTENT } from '../shared/nodeProblems';
import { HEALTH_BAND_COLOURS, NodeHistoryChart, type NodeHistoryChartTexts } from './NodeHistoryChart';

/** The windows a node's history is shown over, in hours. */
export const HISTORY_RANGES = [24, 72, 168] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

interface NodeHistoryPanelProps {
  siteId: number;
  node: SiteNode;
  timeZone: string | undefined;
  onClose(): void;
}

/** How long the node spent in each health state over the window, in seconds. */
export function timeInStates(history: NodeHistory): Record<NodeHealthState, number> {
  const seconds: Record<NodeHealthState, number> = { ok: 0, warning: 0, bad: 0 };
  for (const span of history.healthStates) {
    seconds[span.state] += Math.max(0, (Date.parse(span.to) - Date.parse(span.from)) / 1000);
  }
  return seconds;
}

/** The node chosen in the table: its battery, link and buffer over the last day, 3 days or week. */
export function NodeHistoryPanel({ siteId, node, timeZone, onClose }: NodeHistoryPanelProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const api = useApi();
  const [hours, setHours] = useState<HistoryRange>(24);
  const history = useNodeHistory(api, siteId, node.nodeId, hours);
  const data = history.data?.nodeId === node.nodeId ? history.data : undefined;

  const texts = useMemo<NodeHistoryChartTexts>(
    () => ({
      battery: t('nodes.history.battery'),
      linkQuality: t('nodes.history.linkQuality'),
      bufferUsage: t('nodes.history.bufferUsage'),
      cutoff: t('nodes.history.cutoff'),
      // A left-to-right mark keeps "3.60 V" in that order on the canvas in Arabic.
      volts: (value) => `\u200e${formatTwoDecimals(value)} V`,
      whole: formatWhole,
      percent: (value) => `\u200e${formatWhole(value)}%`,
      time: (ms) => formatAxisTime(ms, hours, timeZone, language),
    }),
    [t, hours, timeZone, language],
  );

  const states = data ? timeInStates(data) : null;
  const summary = data
    ? t('nodes.history.summary', {
        nodeId: node.nodeId,
        points: formatWhole(data.t.length),
        battery: data.t.length
          ? `${formatTwoDecimals(data.batteryVoltage[data.batteryVoltage.length - 1])} V`
          : '—',
        ok: formatSilence(states?.ok ?? 0, t),
        warning: formatSilence(states?.warning ?? 0, t),
        bad: formatSilence(states?.bad ?? 0, t),
      })
    : '';
  const place = [node.buildingName, node.floorName].filter(Boolean).join(' · ');

  return (
    <Card className="sw-node-history" data-testid="node-history" data-node-id={node.nodeId}>
      <div className="sw-node-history-header">
        <H4 className="sw-node-history-title">{t('nodes.history.title', { nodeId: node.nodeId })}</H4>
        <Tag minimal>{t(`nodes.type.${node.type}`)}</Tag>
        <Tag minimal intent={HEALTH_INTENT[node.health.state]}>
          {t(`nodes.health.${node.health.state}`)}
        </Tag>
        {place && <span className="bp6-text-muted">{place}</span>}
        <ButtonGroup className="sw-node-history-ranges" role="group" aria-label={t('nodes.history.range')}>
          {HISTORY_RANGES.map((range) => (
            <Button
              key={range}
              text={t(`nodes.history.ranges.h${range}`)}
              active={range === hours}
              aria-pressed={range === hours}
              data-testid={`node-history-range-${range}`}
              onClick={() => setHours(range)}
            />
          ))}
        </ButtonGroup>
        <Button
          icon="cross"
          variant="minimal"
          aria-label={t('nodes.history.close')}
          title={t('nodes.history.close')}
          data-testid="node-history-close"
          onClick={onClose}
        />
      </div>
      <p className="sw-node-history-forecast" data-testid="node-history-forecast">
        <strong>{t('nodes.history.forecast')}</strong>{' '}
        {forecastWords(data?.forecast ?? node.forecast, { t, language, timeZone })}
        {(data?.forecast ?? node.forecast).voltsPerDay !== null && (
          <span className="bp6-text-muted">
            {' '}
            {t('nodes.history.voltsPerDay', {
              volts: formatTwoDecimals((data?.forecast ?? node.forecast).voltsPerDay ?? 0),
            })}
          </span>
        )}
      </p>
      {history.isError ? (
        <Callout intent="danger" compact>
          {t('common.somethingWentWrong')}
        </Callout>
      ) : !data ? (
        <Spinner aria-label={t('common.loading')} />
      ) : data.t.length === 0 ? (
        <NonIdealState icon="timeline-line-chart" description={t('nodes.history.noData')} />
      ) : (
        <>
          <NodeHistoryChart
            history={data}
            fromMs={Date.parse(data.from)}
            toMs={Date.parse(data.to)}
            texts={texts}
            rtl={i18n.dir(language) === 'rtl'}
            summary={summary}
          />
          <ul className="sw-node-history-band-legend" aria-label={t('nodes.history.healthBand')}>
            {(['ok', 'warning', 'bad'] as const).map((state) => (
              <li key={state} data-testid={`node-history-time-${state}`}>
                <span className="sw-node-history-swatch" style={{ background: HEALTH_BAND_COLOURS[state] }} />
                {t(`nodes.health.${state}`)}: {formatSilence(states?.[state] ?? 0, t)}
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
