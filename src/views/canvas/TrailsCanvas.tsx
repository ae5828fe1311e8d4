import './trailsHistory.css';
import { Callout, HTMLSelect, ProgressBar, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { type Ref, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BehaviorSubject, type Observable } from 'rxjs';
import { blueprintQuery, floorsQuery, zonesQuery } from '../../api/floors';
import type { Floor, Zone } from '../../domain/floor';
import { formatCount } from '../../domain/numberFormat';
import type { WorkerMap } from '../../streams/workerMapState';
import { useApi, useTokenSource } from '../session/SessionProvider';
import { useSelection } from '../shell/selection';
import { FloorCanvas, type FloorCanvasHandle } from './FloorCanvas';
import type { CanvasPointerEvent } from './FloorCanvasEngine';
import type { LayerDataSource } from './layers/layerInputs';
import type { LayerRegistry } from './layers/registry';
import { useFloorPlace } from './useFloorPlace';

/** The floors of the selected building, in screen order, and the one picked (the first by default). */
export function useBuildingFloor(): {
  floors: readonly Floor[];
  floor: Floor | null;
  loading: boolean;
  pick(floorId: number): void;
} {
  const api = useApi();
  const { building } = useSelection();
  const floors = useQuery({ ...floorsQuery(api, building?.id ?? 0), enabled: building !== null });
  const [picked, setPicked] = useState<number | null>(null);
  const list = floors.data ?? [];
  const floor = list.find((f) => f.id === picked) ?? list[0] ?? null;
  return { floors: list, floor, loading: floors.isPending && building !== null, pick: setPicked };
}

/** A floor picker for the analytics screens. */
export function PlaybackFloorPicker({
  floors,
  floor,
  onPick,
  testId,
}: {
  floors: readonly Floor[];
  floor: Floor | null;
  onPick(floorId: number): void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="sw-history-field">
      <label htmlFor={testId}>{t('history.floor')}</label>
      <HTMLSelect
        id={testId}
        value={floor?.id ?? ''}
        onChange={(event) => onPick(Number(event.currentTarget.value))}
        data-testid={testId}
        options={floors.map((f) => ({ value: f.id, label: f.name }))}
      />
    </div>
  );
}

/**
 * "Chunks fetched: 3 of 8" under a bar, never a bare spinner. With `buffering`, the history the
 * playhead waits for is counted as well ("Loading the playhead's history: 2 of 6").
 */
export function PlaybackProgress({
  fetched,
  total,
  buffering = null,
  testId,
}: {
  fetched: number;
  total: number;
  buffering?: { readonly loaded: number; readonly total: number } | null;
  testId: string;
}) {
  const { t } = useTranslation();
  if (total === 0) return null;
  const waiting = buffering !== null && buffering.loaded < buffering.total;
  const busy = fetched < total && (buffering === null || waiting);
  return (
    <div
      className="sw-history-progress"
      data-testid={testId}
      data-done={fetched >= total || undefined}
      data-fetched={fetched}
      data-total={total}
      data-buffering={waiting || undefined}
    >
      <ProgressBar
        value={Math.min(1, waiting ? buffering.loaded / buffering.total : fetched / total)}
        animate={busy}
        stripes={busy}
      />
      <span>{t('history.chunks', { fetched: formatCount(fetched), total: formatCount(total) })}</span>
      {waiting && (
        <span data-testid={`${testId}-buffering`}>
          {t('history.buffering', {
            fetched: formatCount(buffering.loaded),
            total: formatCount(buffering.total),
          })}
        </span>
      )}
    </div>
  );
}

/** The floor's zones, from the API. */
export function useFloorZones(floorId: number | null): readonly Zone[] {
  const api = useApi();
  const zones = useQuery({ ...zonesQuery(api, floorId ?? 0), enabled: floorId !== null });
  return zones.data ?? NO_ZONES;
}

const NO_ZONES: readonly Zone[] = [];

interface TrailsCanvasProps {
  floor: Floor;
  zones: readonly Zone[];
  layerData: readonly LayerDataSource[];
  workers$?: Observable<WorkerMap>;
  /** A screen's own layers (FloorCanvas's `layers`), read once per mount. */
  layers?: LayerRegistry;
  onPointer?(event: CanvasPointerEvent): void;
  testId: string;
  ref?: Ref<FloorCanvasHandle>;
}

/** A floor's blueprint and zones under the analytics layers a screen feeds. */
export function TrailsCanvas({
  floor,
  zones,
  layerData,
  workers$,
  layers,
  onPointer,
  testId,
  ref,
}: TrailsCanvasProps) {
  const { t } = useTranslation();
  const tokenSource = useTokenSource();
  const blueprint = useQuery({ ...blueprintQuery(tokenSource, floor), enabled: floor.media_url !== null });
  const floorPlace = useFloorPlace(floor);
  const [zones$] = useState(() => new BehaviorSubject<readonly Zone[]>([]));
  useEffect(() => zones$.next(zones), [zones$, zones]);
  return (
    <div className="sw-history-canvas" data-testid={testId}>
      {blueprint.isError && (
        <Callout intent="danger" compact icon="error">
          {t('maps.blueprintError')}
        </Callout>
      )}
      {blueprint.isPending && floor.media_url !== null && (
        <Spinner className="sw-history-canvas-loading" size={20} aria-label={t('maps.blueprintLoading')} />
      )}
      <FloorCanvas
        ref={ref}
        className="sw-history-floor-canvas"
        floor={floor}
        floorPlace={floorPlace}
        blueprint={blueprint.data ?? null}
        zones$={zones$}
        workers$={workers$}
        layerData={layerData}
        layers={layers}
        onPointer={onPointer}
      />
    </div>
  );
}

/** Seconds as "1 h 05 min", "4 min 10 s" or "12 s", in the language shown. */
export function useDurationFormat(): (seconds: number) => string {
  const { t } = useTranslation();
  return (seconds) => {
    const total = Math.round(seconds);
    const h = Math.floor(total / 3600);
    const m = Math.floor((total % 3600) / 60);
    const s = total % 60;
    if (h > 0) return t('history.duration.hours', { h, m: String(m).padStart(2, '0') });
    if (m > 0) return t('history.duration.minutes', { m, s: String(s).padStart(2, '0') });
    return t('history.duration.seconds', { s });
  };
}

/** Metres with one decimal and grouped thousands. */
export function formatMetres(metres: number): string {
  return formatCount(Math.round(metres * 10) / 10);
}

/** One labelled date or time input of the history screens' controls. */
export function HistoryField({
  label,
  type,
  value,
  onChange,
  testId,
}: {
  label: string;
  type: 'date' | 'datetime-local';
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <label className="sw-history-field">
      <span>{label}</span>
      <input
        className="bp6-input"
        type={type}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        data-testid={testId}
      />
    </label>
  );
}

/** The day picker of the history screens: a `YYYY-MM-DD` of the site's calendar (never cleared). */
export function HistoryDayField({
  day,
  onChange,
  testId,
}: {
  day: string;
  onChange: (day: string) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <HistoryField
      label={t('history.day')}
      type="date"
      value={day}
      onChange={(value) => value && onChange(value)}
      testId={testId}
    />
  );
}
