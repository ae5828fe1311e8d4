import './installation.css';
import { Button, FormGroup, HTMLSelect, NonIdealState, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'wouter';
import { floorsQuery } from '../../api/floors';
import type { Site } from '../../domain/user';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi } from '../session/SessionProvider';
import { useSelection } from '../shell/selection';
import { InstallationFloor } from './InstallationFloor';
import { INSTALLATION_TABS, type InstallationTab } from './installationTabs';

/**
 * /installation, installation mode (spec route table; the site engineer's landing page): pick a
 * building and a floor (kept in the address, so a reload keeps the view), then plan it (walls,
 * planning anchors, coverage), approve its installed anchors, or manage its work permits.
 */
export function InstallationScreen() {
  const { t } = useTranslation();
  const { site, loading } = useSelection();
  if (!site) {
    return (
      <section className="sw-install" data-testid="installation-screen">
        <ScreenTitle>{t('screen.installation')}</ScreenTitle>
        {loading.clients || loading.sites ? (
          <Spinner aria-label={t('common.loading')} />
        ) : (
          <NonIdealState icon="office" description={t('installation.screen.noSite')} />
        )}
      </section>
    );
  }
  // Another site starts with nothing picked, its own plan and no coverage.
  return <Installation key={site.id} site={site} />;
}

const NONE = '';

function Installation({ site }: { site: Site }) {
  const { t } = useTranslation();
  const api = useApi();
  const { buildings, client } = useSelection();
  const [params, setParams] = useSearchParams();
  const buildingId = Number(params.get('buildingId')) || null;
  const building = buildings.find((b) => b.id === buildingId) ?? null;
  const floors = useQuery({ ...floorsQuery(api, building?.id ?? 0), enabled: building !== null });
  const floorId = Number(params.get('floorId')) || null;
  const floor = (floors.data ?? []).find((f) => f.id === floorId) ?? null;
  const tabParam = params.get('tab');
  const tab: InstallationTab = INSTALLATION_TABS.includes(tabParam as InstallationTab)
    ? (tabParam as InstallationTab)
    : 'plan';

  const pick = (next: { buildingId?: number | null; floorId?: number | null; tab?: InstallationTab }) => {
    const merged = {
      buildingId: next.buildingId === undefined ? buildingId : next.buildingId,
      floorId: next.floorId === undefined ? floorId : next.floorId,
      tab: next.tab ?? tab,
    };
    const search: Record<string, string> = {};
    if (merged.buildingId) search.buildingId = String(merged.buildingId);
    if (merged.buildingId && merged.floorId) search.floorId = String(merged.floorId);
    if (merged.tab !== 'plan') search.tab = merged.tab;
    setParams(search, { replace: true });
  };

  return (
    <section className="sw-install" data-testid="installation-screen">
      <div className="sw-install-head">
        <ScreenTitle>{t('screen.installation')}</ScreenTitle>
        <div className="sw-install-pickers">
          <FormGroup label={t('installation.screen.building')} labelFor="sw-install-building" inline>
            <HTMLSelect
              id="sw-install-building"
              data-testid="installation-building"
              value={building ? String(building.id) : NONE}
              onChange={(e) => pick({ buildingId: Number(e.currentTarget.value) || null, floorId: null })}
            >
              <option value={NONE}>{t('installation.screen.pickBuilding')}</option>
              {buildings.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('installation.screen.floor')} labelFor="sw-install-floor" inline>
            <HTMLSelect
              id="sw-install-floor"
              data-testid="installation-floor"
              disabled={!building}
              value={floor ? String(floor.id) : NONE}
              onChange={(e) => pick({ floorId: Number(e.currentTarget.value) || null })}
            >
              <option value={NONE}>{t('installation.screen.pickFloor')}</option>
              {(floors.data ?? []).map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <Button
            icon="reset"
            data-testid="installation-reset"
            disabled={!building && !floor}
            title={t('installation.screen.resetHint')}
            onClick={() => pick({ buildingId: null, floorId: null, tab: 'plan' })}
          >
            {t('installation.screen.reset')}
          </Button>
        </div>
      </div>
      {floor ? (
        <>
          <Tabs
            id="sw-install-tabs"
            selectedTabId={tab}
            onChange={(next) => pick({ tab: next as InstallationTab })}
            className="sw-install-tabs"
          >
            <Tab id="plan" title={t('installation.screen.tabs.plan')} data-testid="installation-tab-plan" />
            <Tab
              id="approval"
              title={t('installation.screen.tabs.approval')}
              data-testid="installation-tab-approval"
            />
            <Tab
              id="permits"
              title={t('installation.screen.tabs.permits')}
              data-testid="installation-tab-permits"
            />
          </Tabs>
          {/* A floor starts afresh: its own undo, coverage and approval in progress. */}
          <InstallationFloor
            key={floor.id}
            floor={floor}
            site={site}
            clientId={client?.id ?? site.client_id}
            tab={tab}
          />
        </>
      ) : (
        <div className="sw-install-empty" data-testid="installation-empty">
          {building && floors.isPending ? (
            <Spinner aria-label={t('common.loading')} />
          ) : (
            <NonIdealState
              icon="layers"
              description={
                building
                  ? (floors.data ?? []).length === 0
                    ? t('installation.screen.noFloors')
                    : t('installation.screen.pickFloorHint')
                  : t('installation.screen.pickBuildingHint')
              }
            />
          )}
        </div>
      )}
    </section>
  );
}
