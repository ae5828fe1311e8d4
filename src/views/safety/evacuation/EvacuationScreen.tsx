import './evacuation.css';
import { Button, Callout, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { skipToken, useQueries, useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { zonesQuery } from '../../../api/floors';
import { siteFloorsQuery } from '../../../api/inventory';
import { queryKeys } from '../../../api/queryKeys';
import { safetyNetworksQuery } from '../../../api/safety/evacuations';
import { can } from '../../../domain/access';
import type { EvacuationWorker, RollPerson } from '../../../domain/evacuation';
import { notSafeWorkers } from '../../../domain/evacuationLocations';
import type { Zone } from '../../../domain/floor';
import { floorPlaceNames, zonePlaceName } from '../../../domain/placeNames';
import { clockTime } from '../../../domain/siteClock';
import type { Site } from '../../../domain/user';
import { evacuationStateOf } from '../../../machines/evacuation.machine';
import { ScreenTitle } from '../../screens/ScreenTitle';
import { useSafetyApi } from '../../session/LiveProvider';
import { useApi, useSession } from '../../session/SessionProvider';
import { ConfirmAlert } from '../../shared/ConfirmAlert';
import { useSelection } from '../../shell/selection';
import { useReportDownload } from '../reports/useReportDownload';
import { EvacuationCounters } from './EvacuationCounters';
import { EvacuationFloor } from './EvacuationFloor';
import { EvacuationSummaryCard } from './EvacuationSummaryCard';
import { formatElapsed } from './evacuationFormat';
import { AddPersonDialog } from './muster/AddPersonDialog';
import { ExtendAreaDialog, RedirectDialog } from './muster/AreaDialogs';
import { MarkDialog } from './muster/MarkDialog';
import { MusterPanel } from './muster/MusterPanel';
import { useMusterActions } from './muster/useMusterActions';
import { NotSafeList } from './NotSafeList';
import { type NetworkOption, StartEvacuationDialog } from './StartEvacuationDialog';
import { useEvacuationWall } from './useEvacuationWall';
import { useNow } from './useNow';

/** /safetyevacuation: the control-room wall screen of the selected site. */
export function EvacuationScreen() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { site, loading } = useSelection();
  if (!site || !user) {
    return (
      <section>
        <ScreenTitle>{t('screen.evacuation')}</ScreenTitle>
        {loading.clients || loading.sites ? (
          <Spinner aria-label={t('common.loading')} />
        ) : (
          <NonIdealState icon="office" title={t('evacuation.noSite')} />
        )}
      </section>
    );
  }
  // Keyed by site: another site gets its own socket and machine.
  return <EvacuationWall key={site.id} site={site} canWrite={can(user.user_role, 'write', 'evacuation')} />;
}

function useSiteZones(floorIds: readonly number[]): Zone[] {
  const api = useApi();
  return useQueries({
    queries: floorIds.map((id) => zonesQuery(api, id)),
    combine: (results) => results.flatMap((result) => result.data ?? []),
  });
}

function useNetworks(siteId: number): NetworkOption[] {
  const { api } = useSafetyApi();
  const networks = useQuery(
    api
      ? safetyNetworksQuery(api, siteId)
      : { queryKey: queryKeys.safety.networks(siteId), queryFn: skipToken },
  );
  return networks.data ?? [];
}

/** Full screen through the Fullscreen API, on the wall's own element. */
function useFullscreen(target: React.RefObject<HTMLElement | null>) {
  const [active, setActive] = useState(false);
  useEffect(() => {
    const changed = () => setActive(document.fullscreenElement === target.current && target.current !== null);
    document.addEventListener('fullscreenchange', changed);
    return () => document.removeEventListener('fullscreenchange', changed);
  }, [target]);
  const toggle = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void target.current?.requestFullscreen?.().catch(() => {});
  }, [target]);
  return { active, toggle, supported: typeof document !== 'undefined' && document.fullscreenEnabled };
}

function EvacuationWall({ site, canWrite }: { site: Site; canWrite: boolean }) {
  const { t } = useTranslation();
  const api = useApi();
  const { buildings } = useSelection();
  const wall = useEvacuationWall(site.id, canWrite);
  const { actor } = wall;
  const state = useSelector(actor, evacuationStateOf);
  const connection = useSelector(actor, (s) => s.context.connection);
  const evacuation = useSelector(actor, (s) => s.context.evacuation);
  const workers = useSelector(actor, (s) => s.context.workers);
  const rollPeople = useSelector(actor, (s) => s.context.rollPeople);
  const floorClearances = useSelector(actor, (s) => s.context.floorClearances);
  const counts = useSelector(actor, (s) => s.context.counts);
  const error = useSelector(actor, (s) => s.context.error);
  const summary = useSelector(actor, (s) => s.context.summary);
  const resyncing = useSelector(actor, (s) => s.matches({ inProgress: 'resyncing' }));
  const canStart = useSelector(
    actor,
    (s) => canWrite && s.can({ type: 'evacuation.start', scope: VALID_SCOPE }),
  );
  const canEnd = useSelector(actor, (s) => s.can({ type: 'evacuation.end' }));
  const now = useNow();

  const floors = useQuery(siteFloorsQuery(api, site.id));
  const allFloors = floors.data ?? [];
  const zones = useSiteZones(useMemo(() => allFloors.map((f) => f.id), [allFloors]));
  const networks = useNetworks(site.id);
  const notSafe = useMemo(() => notSafeWorkers(workers), [workers]);
  const floorPlace = useMemo(() => floorPlaceNames(allFloors, buildings), [allFloors, buildings]);
  const safety = useSafetyApi();
  const report = useReportDownload(safety.baseUrl, summary?.evacuationSessionId ?? null);
  const clock = useCallback((iso: string) => clockTime(Date.parse(iso), site.timezone), [site.timezone]);
  const markedWorkers = useMemo(() => [...workers.values()].filter((w) => w.mark !== null), [workers]);
  const people = useMemo(() => [...rollPeople.values()], [rollPeople]);
  const muster = useMusterActions(
    evacuation ? { siteId: site.id, evacuationSessionId: evacuation.evacuationSessionId } : null,
  );
  const [markTarget, setMarkTarget] = useState<{
    subject: { workerId: number } | { rollPersonId: number };
    name: string;
  } | null>(null);
  const [areaDialog, setAreaDialog] = useState<'person' | 'extend' | 'redirect' | null>(null);
  const zoneName = useCallback(
    (id: number) => {
      const zone = zones.find((z) => z.id === id);
      return zone ? zonePlaceName(zone.name, floorPlace(zone.floor_id)) : String(id);
    },
    [zones, floorPlace],
  );

  const [dialogOpen, setDialogOpen] = useState(false);
  const [confirmEnd, setConfirmEnd] = useState(false);
  const [presentation, setPresentation] = useState(false);
  const wallRef = useRef<HTMLElement>(null);
  const fullscreen = useFullscreen(wallRef);

  // The dialog closes once the start went through (or someone else's evacuation arrived).
  useEffect(() => {
    if (state === 'inProgress') setDialogOpen(false);
  }, [state]);

  const running = state === 'inProgress' || state === 'ending';
  const className = [
    'sw-evac',
    presentation || fullscreen.active ? 'sw-evac--presentation' : '',
    running ? 'sw-evac--running' : '',
  ].join(' ');

  return (
    <section
      ref={wallRef}
      className={className}
      data-testid="evacuation-wall"
      data-state={state}
      data-connection={connection}
    >
      <header className="sw-evac-header">
        <ScreenTitle>{t('screen.evacuation')}</ScreenTitle>
        <Tag
          large
          round
          intent={running ? 'danger' : 'none'}
          data-testid="evacuation-phase"
          role="status"
          className="sw-evac-phase"
        >
          {t(`evacuation.phase.${state}`)}
        </Tag>
        {evacuation && (
          <span className="sw-evac-elapsed" data-testid="evacuation-elapsed">
            {t('evacuation.elapsed')}{' '}
            <time dateTime={evacuation.evacuationStartAt} dir="ltr">
              {formatElapsed(evacuation.evacuationStartAt, now)}
            </time>
          </span>
        )}
        <Tag
          minimal
          intent={connection === 'live' ? 'success' : 'warning'}
          data-testid="evacuation-connection"
        >
          {t(`evacuation.connection.${connection}`)}
        </Tag>
        <div className="sw-evac-actions">
          {canWrite && state === 'idle' && (
            <Button
              intent="danger"
              large
              icon="warning-sign"
              text={t('evacuation.actions.start')}
              disabled={!canStart}
              onClick={() => setDialogOpen(true)}
              data-testid="evacuation-start"
            />
          )}
          {canWrite && running && evacuation && (
            <>
              <Button
                icon="add-to-artifact"
                text={t('evacuation.marshal.extend')}
                onClick={() => setAreaDialog('extend')}
                data-testid="evacuation-extend"
              />
              <Button
                icon="flows"
                text={t('evacuation.marshal.redirect')}
                disabled={evacuation.assemblyZoneIds.length === 0}
                onClick={() => setAreaDialog('redirect')}
                data-testid="evacuation-redirect"
              />
            </>
          )}
          {canWrite && running && (
            <Button
              intent="warning"
              large
              icon="stop"
              text={t('evacuation.actions.end')}
              disabled={!canEnd}
              loading={state === 'ending'}
              onClick={() => setConfirmEnd(true)}
              data-testid="evacuation-end"
            />
          )}
          <Button
            icon={presentation ? 'minimize' : 'presentation'}
            text={t(
              presentation ? 'evacuation.actions.leavePresentation' : 'evacuation.actions.presentation',
            )}
            active={presentation}
            onClick={() => setPresentation((on) => !on)}
            data-testid="evacuation-presentation"
          />
          {fullscreen.supported && (
            <Button
              icon={fullscreen.active ? 'minimize' : 'fullscreen'}
              text={t(
                fullscreen.active ? 'evacuation.actions.leaveFullscreen' : 'evacuation.actions.fullscreen',
              )}
              onClick={fullscreen.toggle}
              data-testid="evacuation-fullscreen"
            />
          )}
        </div>
      </header>

      {wall.unavailable && (
        <Callout intent="danger" icon="offline">
          {t('evacuation.unavailable')}
        </Callout>
      )}
      {error && !dialogOpen && (
        <Callout intent="danger" icon="error" data-testid="evacuation-error">
          {error}
          {(state === 'connecting' || state === 'reconnecting') && (
            <Button
              minimal
              text={t('evacuation.actions.retry')}
              onClick={() => actor.send({ type: 'evacuation.retry' })}
            />
          )}
        </Callout>
      )}
      {(state === 'reconnecting' || resyncing) && evacuation && (
        <Callout intent="warning" icon="refresh" data-testid="evacuation-stale">
          {t('evacuation.stale')}
        </Callout>
      )}
      {[...wall.failedNetworks.values()].map((failure) => (
        <Callout
          key={failure.networkId}
          intent="warning"
          icon="satellite"
          data-testid="evacuation-network-failure"
        >
          {t('evacuation.networkFailure', { name: failure.networkName, seconds: failure.silentForSeconds })}
        </Callout>
      ))}

      {evacuation && counts.reEntered > 0 && (
        <Callout intent="danger" icon="warning-sign" data-testid="re-entered-notice">
          {t('evacuation.marshal.reEnteredNotice', { number: counts.reEntered })}
        </Callout>
      )}
      {evacuation && evacuation.unsafeAssemblyZoneIds.length > 0 && (
        <Callout intent="warning" icon="flows" data-testid="unsafe-assembly-notice">
          {t('evacuation.marshal.unsafeNotice', {
            zones: evacuation.unsafeAssemblyZoneIds.map(zoneName).join(', '),
          })}
        </Callout>
      )}

      {summary && state === 'ended' && (
        <EvacuationSummaryCard
          summary={summary}
          floorPlace={floorPlace}
          onExport={safety.baseUrl ? () => report.mutate() : undefined}
          exporting={report.isPending}
          onReset={() => actor.send({ type: 'evacuation.reset' })}
        />
      )}

      {state === 'connecting' ? (
        <Spinner aria-label={t('common.loading')} />
      ) : (
        <>
          {evacuation === null && state !== 'ended' && (
            <p className="sw-evac-idle" data-testid="evacuation-idle">
              {t(canWrite ? 'evacuation.idle.canStart' : 'evacuation.idle.watch')}
            </p>
          )}
          {evacuation && <EvacuationCounters counts={counts} />}
          <div className="sw-evac-grid">
            <EvacuationFloor
              floors={allFloors}
              buildings={buildings}
              preferredFloorIds={evacuation?.evacuationFloorsIds ?? NO_FLOORS}
              siteLive$={wall.siteLive$}
              included$={wall.included$}
              inEvacuation={evacuation !== null}
            />
            {evacuation && (
              <NotSafeList
                workers={notSafe}
                now={now}
                floorPlace={floorPlace}
                clock={clock}
                onMark={
                  canWrite
                    ? (worker: EvacuationWorker) =>
                        setMarkTarget({
                          subject: { workerId: worker.id },
                          name: worker.name ?? worker.wnt_inventory_id,
                        })
                    : undefined
                }
              />
            )}
            {evacuation && (
              <MusterPanel
                floorClearances={floorClearances}
                markedWorkers={markedWorkers}
                rollPeople={people}
                floorPlace={floorPlace}
                clock={clock}
                onUndo={
                  canWrite ? (mark, name) => muster.unmark.mutate({ markId: mark.id, name }) : undefined
                }
                onMarkPerson={
                  canWrite
                    ? (person: RollPerson) =>
                        setMarkTarget({ subject: { rollPersonId: person.id }, name: person.name })
                    : undefined
                }
                onAddPerson={canWrite ? () => setAreaDialog('person') : undefined}
              />
            )}
          </div>
        </>
      )}

      {canWrite && (
        <StartEvacuationDialog
          isOpen={dialogOpen}
          buildings={buildings}
          floors={allFloors}
          zones={zones}
          networks={networks}
          busy={state === 'starting'}
          error={dialogOpen ? error : null}
          onStart={(scope) => actor.send({ type: 'evacuation.start', scope })}
          onClose={() => setDialogOpen(false)}
          portalContainer={wallRef.current ?? undefined}
        />
      )}
      {canWrite && evacuation && (
        <>
          <MarkDialog
            key={markTarget?.name ?? 'none'}
            name={markTarget?.name ?? null}
            busy={muster.mark.isPending}
            portalContainer={wallRef.current ?? undefined}
            onClose={() => setMarkTarget(null)}
            onMark={(reason) => {
              if (!markTarget) return;
              muster.mark.mutate(
                { subject: markTarget.subject, reason, name: markTarget.name },
                { onSuccess: () => setMarkTarget(null) },
              );
            }}
          />
          <AddPersonDialog
            isOpen={areaDialog === 'person'}
            busy={muster.addPerson.isPending}
            portalContainer={wallRef.current ?? undefined}
            onClose={() => setAreaDialog(null)}
            onAdd={(person) => muster.addPerson.mutate(person)}
          />
          <ExtendAreaDialog
            isOpen={areaDialog === 'extend'}
            evacuation={evacuation}
            floors={allFloors}
            zones={zones}
            floorPlace={floorPlace}
            busy={muster.extend.isPending}
            portalContainer={wallRef.current ?? undefined}
            onClose={() => setAreaDialog(null)}
            onExtend={(area) => muster.extend.mutate(area, { onSuccess: () => setAreaDialog(null) })}
          />
          <RedirectDialog
            isOpen={areaDialog === 'redirect'}
            evacuation={evacuation}
            floors={allFloors}
            zones={zones}
            floorPlace={floorPlace}
            busy={muster.redirect.isPending}
            portalContainer={wallRef.current ?? undefined}
            onClose={() => setAreaDialog(null)}
            onRedirect={(target) => muster.redirect.mutate(target, { onSuccess: () => setAreaDialog(null) })}
          />
        </>
      )}
      <ConfirmAlert
        isOpen={confirmEnd}
        intent="danger"
        icon="stop"
        cancelText={t('evacuation.end.cancel')}
        confirmText={t('evacuation.end.confirm')}
        onCancel={() => setConfirmEnd(false)}
        onConfirm={() => {
          setConfirmEnd(false);
          actor.send({ type: 'evacuation.end' });
        }}
        portalContainer={wallRef.current ?? undefined}
      >
        <p>{t('evacuation.end.question')}</p>
      </ConfirmAlert>
    </section>
  );
}

const NO_FLOORS: readonly number[] = [];

/** Any scope the machine accepts: asks whether a start may be offered at all in this state. */
const VALID_SCOPE = { floorIds: [1], zoneIds: [], assemblyZoneIds: [1], safeZone: null, gateWayId: null };
