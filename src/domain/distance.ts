import type { LatLong } from './floor';

/** Earth radius of spec §9, in metres (6371 km). */
export const EARTH_RADIUS_M = 6_371_000;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle (haversine) distance between two points, in metres. */
export function greatCircleDistance(from: LatLong, to: LatLong, radius = EARTH_RADIUS_M): number {
  const dLat = radians(to.lat - from.lat);
  const dLong = radians(to.long - from.long);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(from.lat)) * Math.cos(radians(to.lat)) * Math.sin(dLong / 2) ** 2;
  return 2 * radius * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A number rounded to two decimals, as spec §5 compares distances. */
export function toTwoDecimals(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * Spec §5's distance check: a given distance (metres) between two corners equals their
 * great-circle distance, both compared to two decimals.
 */
export function distanceMatches(given: number, from: LatLong, to: LatLong): boolean {
  if (!Number.isFinite(given)) return false;
  return toTwoDecimals(given) === toTwoDecimals(greatCircleDistance(from, to));
}
