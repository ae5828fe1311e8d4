import { Tab, Tabs } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';

const VIEWS = [
  { path: '/analytics', key: 'screen.analytics' },
  { path: '/analytics/heatmap', key: 'screen.analyticsHeatmap' },
  { path: '/analytics/spaghetti', key: 'screen.analyticsSpaghetti' },
  { path: '/analytics/playback', key: 'screen.analyticsPlayback' },
] as const;

/** The analytics views as tabs: the overview and the three floor views. */
export function AnalyticsNav() {
  const { t } = useTranslation();
  const [location, navigate] = useLocation();
  return (
    <Tabs
      id="analytics-views"
      className="sw-analytics-nav"
      selectedTabId={location}
      onChange={(path) => navigate(String(path))}
    >
      {VIEWS.map((view) => (
        <Tab key={view.path} id={view.path} title={t(view.key)} data-testid={`analytics-tab-${view.path}`} />
      ))}
    </Tabs>
  );
}
