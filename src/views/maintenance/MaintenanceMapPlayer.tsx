import { Button, ButtonGroup, Callout, HTMLSelect } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ANALYTICS_MAX_WINDOW_DAYS } from '../../domain/analytics';
import { siteInputInstant, siteInputValue } from '../../domain/siteClock';
import type { ClockActor, ClockControlEvent } from '../../machines/maintenanceMap.machine';
import {
  isPlaybackRunning,
  PLAYBACK_SPEEDS,
  type PlaybackRange,
  selectPlaybackSpeed,
  selectPlayheadMs,
} from '../../machines/playback.machine';
import type { PlaybackProgress as Progress } from '../../streams/playback.stream';
import { HistoryField, PlaybackProgress } from '../canvas/TrailsCanvas';
import { formatFullDate } from '../shared/nodeFormat';

const HOUR_MS = 3_600_000;

/** The replay's preset ranges, hours back from now; the last 24 hours by default. */
export const RANGE_PRESETS = { h1: 1, h6: 6, h24: 24, h72: 72, h168: 168 } as const;
export type RangePreset = keyof typeof RANGE_PRESETS | 'custom';
export const DEFAULT_PRESET: RangePreset = 'h24';

/** A preset's range ending at `nowMs` (on the second, so two picks a moment apart compare equal). */
export function presetRange(preset: keyof typeof RANGE_PRESETS, nowMs: number): PlaybackRange {
  const toMs = Math.floor(nowMs / 1000) * 1000;
  return { fromMs: toMs - RANGE_PRESETS[preset] * HOUR_MS, toMs };
}

interface RangeProps {
  preset: RangePreset;
  range: PlaybackRange;
  timeZone: string;
  onPreset(preset: RangePreset): void;
  onRange(range: PlaybackRange): void;
}

/** The replay's range: a preset, or two instants on the site's clock (at most 31 days apart). */
export function MaintenanceMapRange({ preset, range, timeZone, onPreset, onRange }: RangeProps) {
  const { t } = useTranslation();
  const [invalid, setInvalid] = useState(false);
  const pick = (fromText: string, toText: string) => {
    const next = { fromMs: siteInputInstant(fromText, timeZone), toMs: siteInputInstant(toText, timeZone) };
    const ok =
      Number.isFinite(next.fromMs) &&
      Number.isFinite(next.toMs) &&
      next.toMs > next.fromMs &&
      next.toMs - next.fromMs <= ANALYTICS_MAX_WINDOW_DAYS * 24 * HOUR_MS;
    setInvalid(!ok);
    if (ok) onRange(next);
  };
  const from = siteInputValue(range.fromMs, timeZone);
  const to = siteInputValue(range.toMs, timeZone);
  return (
    <div className="sw-mmap-range" data-testid="mmap-range">
      <div className="sw-history-field">
        <label htmlFor="mmap-range-preset">{t('maintenance.map.range')}</label>
        <HTMLSelect
          id="mmap-range-preset"
          value={preset}
          onChange={(e) => onPreset(e.currentTarget.value as RangePreset)}
          data-testid="mmap-range-preset"
          options={[...Object.keys(RANGE_PRESETS), 'custom'].map((value) => ({
            value,
            label: t(`maintenance.map.preset.${value}`),
          }))}
        />
      </div>
      {preset === 'custom' && (
        <>
          <HistoryField
            label={t('maintenance.map.from')}
            type="datetime-local"
            value={from}
            onChange={(value) => pick(value, to)}
            testId="mmap-range-from"
          />
          <HistoryField
            label={t('maintenance.map.to')}
            type="datetime-local"
            value={to}
            onChange={(value) => pick(from, value)}
            testId="mmap-range-to"
          />
        </>
      )}
      {invalid && (
        <Callout compact intent="danger" role="alert" data-testid="mmap-range-invalid">
          {t('maintenance.map.badRange')}
        </Callout>
      )}
    </div>
  );
}

interface PlayerProps {
  clock: ClockActor;
  send(event: ClockControlEvent): void;
  progress: Progress | null;
  timeZone: string;
}

/**
 * The analytics replay's controls over the map's clock: step, play or pause, step, speed, the
 * scrubber and the playhead's date and time on the site's clock, with the history's progress
 * ("chunks fetched of total"). Left to right in Arabic too, as media players are.
 */
export function MaintenanceMapPlayer({ clock, send, progress, timeZone }: PlayerProps) {
  const { t, i18n } = useTranslation();
  const snapshot = useSelector(clock, (s) => s);
  const playheadMs = useSelector(clock, selectPlayheadMs);
  const speed = useSelector(clock, selectPlaybackSpeed);
  const running = useSelector(clock, isPlaybackRunning);
  const range = snapshot.context.range;
  const allowed = (event: ClockControlEvent) => snapshot.can(event);
  if (!range) return null;
  return (
    <div className="sw-mmap-player" data-testid="mmap-player">
      {progress && (
        <PlaybackProgress
          fetched={progress.windowsLoaded}
          total={progress.windowsTotal}
          buffering={{ loaded: progress.neededLoaded, total: progress.neededTotal }}
          testId="mmap-progress"
        />
      )}
      {progress?.error && (
        <Callout intent="danger" compact icon="error" data-testid="mmap-replay-error">
          {progress.error}
        </Callout>
      )}
      <div className="sw-playback-player">
        <ButtonGroup>
          <Button
            icon="step-backward"
            aria-label={t('history.stepBack')}
            disabled={!allowed({ type: 'playback.step', direction: -1 })}
            onClick={() => send({ type: 'playback.step', direction: -1, ms: stepMs(speed) })}
            data-testid="mmap-step-back"
          />
          <Button
            icon={running ? 'pause' : 'play'}
            aria-label={running ? t('history.pause') : t('history.play')}
            disabled={!allowed({ type: 'playback.toggle' })}
            onClick={() => send({ type: 'playback.toggle' })}
            data-testid="mmap-toggle"
          />
          <Button
            icon="step-forward"
            aria-label={t('history.stepForward')}
            disabled={!allowed({ type: 'playback.step', direction: 1 })}
            onClick={() => send({ type: 'playback.step', direction: 1, ms: stepMs(speed) })}
            data-testid="mmap-step-forward"
          />
        </ButtonGroup>
        <HTMLSelect
          aria-label={t('history.speed')}
          value={speed}
          onChange={(e) => send({ type: 'playback.speed', speed: Number(e.currentTarget.value) })}
          data-testid="mmap-speed"
          options={PLAYBACK_SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
        />
        <input
          type="range"
          className="sw-playback-scrub"
          aria-label={t('history.scrub')}
          min={range.fromMs}
          max={range.toMs}
          step={1000}
          value={playheadMs}
          disabled={!allowed({ type: 'playback.seek', ms: range.fromMs })}
          onChange={(e) => send({ type: 'playback.seek', ms: Number(e.currentTarget.value) })}
          data-testid="mmap-scrub"
        />
        <output className="sw-playback-clock sw-mmap-clock" data-testid="mmap-clock" data-ms={playheadMs}>
          {formatFullDate(playheadMs, timeZone, i18n.language)}
        </output>
      </div>
    </div>
  );
}

/**
 * A step of the player: a second of the replay at 1×, more at speed (a minute at 60×), so a step
 * moves the network visibly over a day (nodes report every 10–60 s).
 */
export function stepMs(speed: number): number {
  return Math.max(1, speed) * 1000;
}
