import type { FloorCorners } from '../../../src/domain/floor';
import { floorTransform } from '../../../src/domain/geo';
import { FloorScene } from '../../../src/views/canvas/scene';

/** The trails tests' floor: a 2000 × 1000 px blueprint over a small rectangle of Dubai. */
const TRAILS_IMAGE = { width: 2000, height: 1000 };
const CORNERS: FloorCorners = {
  a: { lat: 25.201, long: 55.27 },
  b: { lat: 25.201, long: 55.272 },
  c: { lat: 25.2, long: 55.272 },
  d: { lat: 25.2, long: 55.27 },
};

/** A scene framed on that floor, ready for layers to draw. */
export function trailsFloorScene(): FloorScene {
  const scene = new FloorScene();
  scene.setFrame(TRAILS_IMAGE, floorTransform(CORNERS, TRAILS_IMAGE));
  return scene;
}
