import { greatCircleDistance } from '../distance';
import type { FloorCorners, LatLong } from '../floor';
import { floorTransform, imagePoint } from '../geo';
import type { MetrePoint } from './coverage';

/** A floor in metres: x along corner a→b, y along a→d, origin at corner a (the simulation's frame). */
export interface FloorMetres {
  widthM: number;
  heightM: number;
  toMetres(p: LatLong): MetrePoint;
  toGeo(p: MetrePoint): LatLong;
}

/**
 * The floor's corners as a metre frame: the blueprint transform with the "image" sized in metres
 * (a→b wide, a→d high, as floorGrid measures them), so one unit is one metre along each side.
 */
export function floorMetres(corners: FloorCorners): FloorMetres {
  const widthM = greatCircleDistance(corners.a, corners.b);
  const heightM = greatCircleDistance(corners.a, corners.d);
  const transform = floorTransform(corners, { width: widthM, height: heightM });
  return {
    widthM,
    heightM,
    toMetres(p) {
      const { x, y } = transform.toImage(p);
      return { x, y };
    },
    toGeo(p) {
      const { lat, long } = transform.toGeo(imagePoint(p.x, p.y));
      return { lat, long };
    },
  };
}
