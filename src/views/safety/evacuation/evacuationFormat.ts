import dayjs from 'dayjs';

/** A Pixi colour (0xRRGGBB) as CSS. */
export function cssColour(colour: number): string {
  return `#${colour.toString(16).padStart(6, '0')}`;
}

/** Elapsed time as HH:MM:SS (spec §9 clock time), hours growing past 99 if they must. */
export function formatElapsed(fromIso: string, nowMs: number): string {
  const seconds = Math.max(0, Math.floor((nowMs - dayjs(fromIso).valueOf()) / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}

/** Seconds from a moment until now (null when there is no moment), for formatDuration. */
export function secondsSince(fromIso: string | null, nowMs: number): number | null {
  if (fromIso === null) return null;
  return Math.max(0, Math.floor((nowMs - dayjs(fromIso).valueOf()) / 1000));
}
