import dayjs from 'dayjs';

/** Spec §9: thousands grouped with commas, whatever the language. */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

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

/** How long ago, in h/m/s (spec §9 durations): "1h 4m", "3m 20s", "12s". */
export function formatAgo(fromIso: string | null, nowMs: number): string | null {
  if (fromIso === null) return null;
  const seconds = Math.max(0, Math.floor((nowMs - dayjs(fromIso).valueOf()) / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}
