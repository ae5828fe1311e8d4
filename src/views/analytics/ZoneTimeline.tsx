import { Callout } from '@blueprintjs/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { gatewayQueryOptions } from '../../api/gateway';
import type { Zone } from '../../domain/floor';
import { clockTime } from '../../domain/siteClock';
import {
  bucketCounts,
  type TimelineRow,
  timelineGranularity,
  zoneOccupancy,
  zoneTimelineQuery,
} from './ZoneTimelineCounts';

interface ZoneTimelineProps {
  floorId: number;
  zones: readonly Zone[];
  fromMs: number;
  toMs: number;
  /** The site's time zone, for the axis's clock times. */
  timeZone: string;
  playheadMs: number;
  /** Today's range is still being written: its counts are asked for again now and then. */
  live: boolean;
  onSeek(ms: number): void;
}

const NO_ROWS: readonly TimelineRow[] = [];

/**
 * Under the playback canvas: one row per zone, each column's shade the number of workers in the
 * zone then (the analytics gateway's Presence cube, so the whole range costs one query, not every
 * position), and the playhead as a line across; a click seeks there.
 */
export function ZoneTimeline({
  floorId,
  zones,
  fromMs,
  toMs,
  timeZone,
  playheadMs,
  live,
  onSeek,
}: ZoneTimelineProps) {
  const { t } = useTranslation();
  const zoneCount = zones.length;
  const query = useMemo(
    () => zoneTimelineQuery({ floorId, fromMs, toMs, zoneCount }),
    [floorId, fromMs, toMs, zoneCount],
  );
  const reply = useQuery({
    ...gatewayQueryOptions(query),
    enabled: zoneCount > 0 && Number.isFinite(fromMs) && toMs > fromMs,
    placeholderData: keepPreviousData,
    refetchInterval: live ? 60_000 : false,
  });
  const rows = (reply.data?.data as readonly TimelineRow[] | undefined) ?? NO_ROWS;
  const occupancy = useMemo(() => {
    const granularity = timelineGranularity(fromMs, toMs, zoneCount);
    return zoneOccupancy(
      bucketCounts(rows, granularity),
      zones.map((z) => z.id),
      fromMs,
      toMs,
      granularity,
    );
  }, [rows, zones, zoneCount, fromMs, toMs]);
  if (zoneCount === 0) return null;
  const { startMs, endMs, columns } = occupancy;
  const rowHeight = 18;
  const height = zoneCount * rowHeight;
  const playheadX = ((playheadMs - startMs) / (endMs - startMs)) * columns;
  return (
    <>
      {reply.isError && (
        <Callout intent="warning" compact icon="warning-sign">
          {t('history.timelineError')}
        </Callout>
      )}
      <div
        className="sw-zone-timeline"
        data-testid="zone-timeline"
        data-from={startMs}
        data-to={endMs}
        data-loading={reply.isPending || undefined}
      >
        <div className="sw-zone-timeline-names">
          {zones.map((zone) => (
            <div key={zone.id} style={{ height: rowHeight }}>
              <bdi>{zone.name}</bdi>
            </div>
          ))}
        </div>
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: a pointer shortcut; the player's scrub slider and step keys seek from the keyboard. */}
        <svg
          role="img"
          aria-label={t('history.timeline')}
          viewBox={`0 0 ${columns} ${height}`}
          preserveAspectRatio="none"
          height={height}
          data-testid="zone-timeline-chart"
          onClick={(event) => {
            const box = event.currentTarget.getBoundingClientRect();
            const fraction = (event.clientX - box.left) / box.width;
            onSeek(startMs + fraction * (endMs - startMs));
          }}
        >
          {occupancy.zoneIds.map((zoneId, row) => {
            const cells = [];
            for (let column = 0; column < columns; column++) {
              const count = occupancy.counts[row * columns + column];
              if (count === 0) continue;
              cells.push(
                <rect
                  key={column}
                  x={column}
                  y={row * rowHeight + 2}
                  width={1.05}
                  height={rowHeight - 4}
                  fill="#2d72d2"
                  opacity={0.2 + (0.8 * count) / Math.max(1, occupancy.max)}
                  data-testid="zone-timeline-cell"
                  data-zone={zoneId}
                  data-count={count}
                >
                  <title>{String(count)}</title>
                </rect>,
              );
            }
            return <g key={zoneId}>{cells}</g>;
          })}
          {playheadX >= 0 && playheadX <= columns && (
            <line
              x1={playheadX}
              x2={playheadX}
              y1={0}
              y2={height}
              stroke="#cd4246"
              strokeWidth={1}
              vectorEffect="non-scaling-stroke"
              data-testid="zone-timeline-playhead"
            />
          )}
        </svg>
        <div className="sw-zone-timeline-axis">
          <span>{clockTime(startMs, timeZone)}</span>
          <span>{clockTime(endMs, timeZone)}</span>
        </div>
      </div>
    </>
  );
}
