import { Card, H5, HTMLTable } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Floor } from '../../domain/floor';
import type { Building } from '../../domain/user';

interface FloorCountsProps {
  buildings: readonly Building[];
  floors: readonly Floor[];
  /** Live online-active counts per floor; null until the site's first snapshot (then the floors' own). */
  live: ReadonlyMap<number, number> | null;
}

/** Online active workers per building and per floor, highest floor first. */
export function FloorCounts({ buildings, floors, live }: FloorCountsProps) {
  const { t, i18n } = useTranslation();
  const count = (floor: Floor) => (live ? (live.get(floor.id) ?? 0) : floor.online_active_worker_count);
  const format = (n: number) => n.toLocaleString(i18n.language);
  const total = floors.reduce((sum, floor) => sum + count(floor), 0);
  return (
    <Card className="sw-dashboard-panel" data-testid="dashboard-counts">
      <H5>{t('screen.dashboard.counts.title')}</H5>
      <HTMLTable compact className="sw-dashboard-counts">
        <thead>
          <tr>
            <th>{t('screen.dashboard.counts.building')}</th>
            <th>{t('screen.dashboard.counts.floor')}</th>
            <th>{t('screen.dashboard.counts.onlineActive')}</th>
          </tr>
        </thead>
        {buildings.map((building) => {
          const own = floors.filter((floor) => floor.building_id === building.id);
          const sum = own.reduce((s, floor) => s + count(floor), 0);
          return (
            <tbody key={building.id} data-testid="dashboard-building-counts" data-building-id={building.id}>
              <tr className="sw-dashboard-counts__building">
                <th scope="rowgroup" colSpan={2}>
                  <bdi>{building.name}</bdi>
                </th>
                <td data-testid="building-online-active">{format(sum)}</td>
              </tr>
              {own.map((floor) => (
                <tr key={floor.id} data-testid="dashboard-floor-count" data-floor-id={floor.id}>
                  <td />
                  <td>
                    <bdi>{floor.name}</bdi>
                  </td>
                  <td data-testid="floor-online-active">{format(count(floor))}</td>
                </tr>
              ))}
            </tbody>
          );
        })}
        <tfoot>
          <tr>
            <th colSpan={2}>{t('screen.dashboard.counts.total')}</th>
            <td data-testid="site-online-active">{format(total)}</td>
          </tr>
        </tfoot>
      </HTMLTable>
    </Card>
  );
}
