import '../dashboard/dashboard.css';
import { Card, NonIdealState, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { siteFloorsQuery } from '../../api/inventory';
import { can } from '../../domain/access';
import type { Site } from '../../domain/user';
import type { LiveConnectionState } from '../../streams/liveEvent';
import { type LiveConnection, useLiveWorkers } from '../canvas/useLiveWorkers';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi, useSession } from '../session/SessionProvider';
import { useSelection } from '../shell/selection';
import { AssetCounts } from './AssetCounts';
import { FloorCounts } from './FloorCounts';
import { LiveFloor } from './LiveFloor';
import { LiveIndicator } from './LiveIndicator';
import { useSiteLiveCounts } from './useSiteLiveCounts';

function Stat({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <Card>
      <div className="sw-stat-label">{label}</div>
      <div className="sw-stat-value" data-testid={testId}>
        {children}
      </div>
    </Card>
  );
}

/** The dashboard: an overview of the selected site, live for roles that may see its floors. */
export function HomeScreen() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { client, site, buildings, loading } = useSelection();
  // The floors, counts and canvas are the maps area's data (DESIGN §4): other roles see the overview only.
  const live = user ? can(user.user_role, 'open', 'maps') : false;

  if (!site) {
    return (
      <section>
        <ScreenTitle>{t('screen.home')}</ScreenTitle>
        {loading.clients || loading.sites ? (
          <Spinner aria-label={t('common.loading')} />
        ) : (
          <NonIdealState
            icon="office"
            title={t('screen.dashboard.noSite')}
            description={t('screen.dashboard.noSiteDescription')}
          />
        )}
      </section>
    );
  }

  const overview = (
    <div className="sw-dashboard-cards">
      <Stat label={t('screen.dashboard.site')} testId="dashboard-site">
        {site.name}
      </Stat>
      <Stat label={t('screen.dashboard.client')} testId="dashboard-client">
        {client?.name ?? '-NA-'}
      </Stat>
      <Stat label={t('screen.dashboard.buildings')} testId="dashboard-buildings">
        {loading.buildings ? <Spinner size={20} /> : buildings.length.toLocaleString('en-US')}
      </Stat>
      <Stat label={t('screen.dashboard.timezone')} testId="dashboard-timezone">
        <bdi>{site.timezone}</bdi>
      </Stat>
    </div>
  );

  if (!live) {
    return (
      <section>
        <ScreenTitle>{t('screen.home')}</ScreenTitle>
        {overview}
      </section>
    );
  }
  // Keyed by site: a new site starts with fresh sockets, counts and floor choice.
  return <LiveDashboard key={site.id} site={site} overview={overview} />;
}

const SEVERITY: LiveConnectionState[] = ['live', 'connecting', 'reconnecting', 'offline'];

/** The indicator shows the worse of the site's and the floor's sockets. */
function worse(a: LiveConnection, b: LiveConnection): LiveConnection {
  return SEVERITY.indexOf(b.state) > SEVERITY.indexOf(a.state) ? b : a;
}

function LiveDashboard({ site, overview }: { site: Site; overview: ReactNode }) {
  const { t } = useTranslation();
  const api = useApi();
  const { buildings, building, selectBuilding } = useSelection();
  const floors = useQuery(siteFloorsQuery(api, site.id));
  const [pickedFloorId, setPickedFloorId] = useState<number | null>(null);

  const allFloors = floors.data ?? [];
  const own = building ? allFloors.filter((f) => f.building_id === building.id) : [];
  // Floors arrive highest first: the default is the top floor of the building.
  const floor = own.find((f) => f.id === pickedFloorId) ?? own[0] ?? null;

  const siteLive = useLiveWorkers(site.id, null);
  const floorLive = useLiveWorkers(site.id, floor?.id ?? null, floor !== null);
  const counts = useSiteLiveCounts(site.id, siteLive.workers$);

  return (
    <section className="sw-dashboard">
      <div className="sw-dashboard-title">
        <ScreenTitle>{t('screen.home')}</ScreenTitle>
        <LiveIndicator
          connection={floor ? worse(siteLive.connection, floorLive.connection) : siteLive.connection}
        />
      </div>
      {overview}
      <div className="sw-dashboard-grid">
        <div className="sw-dashboard-side">
          <AssetCounts siteId={site.id} />
          {floors.isPending ? (
            <Spinner size={20} aria-label={t('common.loading')} />
          ) : floors.isError ? (
            <p>{t('screen.dashboard.countsError')}</p>
          ) : (
            <FloorCounts buildings={buildings} floors={allFloors} live={counts} />
          )}
        </div>
        <LiveFloor
          buildings={buildings}
          building={building}
          floors={allFloors}
          floor={floor}
          onSelectBuilding={(id) => {
            setPickedFloorId(null);
            selectBuilding(id);
          }}
          onSelectFloor={setPickedFloorId}
          workers$={floorLive.workers$}
        />
      </div>
    </section>
  );
}
