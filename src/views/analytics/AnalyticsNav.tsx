import { Tab, Tabs } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'wouter';
import { REPORTS_PATH, reportAddressOf } from './reportAddress';

const VIEWS = [
  { path: '/analytics', key: 'screen.analytics' },
  { path: '/analytics/heatmap', key: 'screen.analyticsHeatmap' },
  { path: '/analytics/spaghetti', key: 'screen.analyticsSpaghetti' },
  { path: '/analytics/playback', key: 'screen.analyticsPlayback' },
  { path: REPORTS_PATH, key: 'analytics.reports.tab' },
] as const;

/** The analytics views as tabs: the overview, the three floor views and the Power BI reports. */
export function AnalyticsNav() {
  const { t } = useTranslation();
  const [location, navigate] = useLocation();
  const [params] = useSearchParams();
  const selected = location === '/analytics' && reportAddressOf(params).reports ? REPORTS_PATH : location;
  return (
    <Tabs
      id="analytics-views"
      className="sw-analytics-nav"
      selectedTabId={selected}
      onChange={(path) => navigate(String(path))}
    >
      {VIEWS.map((view) => (
        <Tab key={view.path} id={view.path} title={t(view.key)} data-testid={`analytics-tab-${view.path}`} />
      ))}
    </Tabs>
  );
}
