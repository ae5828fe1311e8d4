import { Card, H5, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { inventoryMetaQuery } from '../../api/inventory';
import type { InventoryMeta } from '../../domain/floor';
import { useApi } from '../session/SessionProvider';

const FIELDS: [keyof InventoryMeta, string][] = [
  ['totalActiveAssets', 'active'],
  ['totalInActiveAssets', 'inactive'],
  ['totalOfflineAssets', 'offline'],
  ['totalUnassignedAssets', 'unassigned'],
  ['totalAssets', 'total'],
];

/** The site's asset status counts (spec §3); refetched as live updates arrive (see HomeScreen). */
export function AssetCounts({ siteId }: { siteId: number }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const meta = useQuery(inventoryMetaQuery(api, 'sites', siteId));
  return (
    <Card className="sw-dashboard-panel" data-testid="dashboard-assets">
      <H5>{t('screen.dashboard.assets.title')}</H5>
      {meta.isPending ? (
        <Spinner size={20} aria-label={t('common.loading')} />
      ) : meta.isError ? (
        <p>{t('screen.dashboard.countsError')}</p>
      ) : (
        <dl className="sw-dashboard-assets">
          {FIELDS.map(([field, key]) => (
            <div key={field}>
              <dt>{t(`screen.dashboard.assets.${key}`)}</dt>
              <dd data-testid={`dashboard-assets-${key}`}>
                {meta.data[field].toLocaleString(i18n.language)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}
