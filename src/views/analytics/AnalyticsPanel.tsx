import { Callout, Card, Classes, H4, NonIdealState } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type PanelState = 'loading' | 'error' | 'empty' | 'ready';

interface AnalyticsPanelProps {
  title: string;
  testId: string;
  state: PanelState;
  /** A line under the title (the live panel's "data covers the last 1 hour"). */
  info?: string;
  children?: ReactNode;
  wide?: boolean;
}

/**
 * One panel of the overview: its title, then a placeholder of the chart's shape while it loads,
 * the error, a clear "no data" when the range has none, or the chart.
 */
export function AnalyticsPanel({ title, testId, state, info, children, wide }: AnalyticsPanelProps) {
  const { t } = useTranslation();
  return (
    <Card
      className={wide ? 'sw-analytics-panel sw-analytics-panel--wide' : 'sw-analytics-panel'}
      data-testid={testId}
      data-state={state}
      aria-busy={state === 'loading'}
    >
      <H4 className="sw-analytics-panel-title">{title}</H4>
      {info && <p className="sw-analytics-panel-info">{info}</p>}
      {state === 'loading' && <div className={`sw-analytics-skeleton ${Classes.SKELETON}`} />}
      {state === 'error' && (
        <Callout intent="danger" compact icon="error">
          {t('analytics.panelError')}
        </Callout>
      )}
      {state === 'empty' && (
        <NonIdealState
          className="sw-analytics-empty"
          icon="timeline-bar-chart"
          title={t('analytics.empty')}
          description={t('analytics.emptyDescription')}
        />
      )}
      {state === 'ready' && children}
    </Card>
  );
}
