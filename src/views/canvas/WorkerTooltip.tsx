import { markerLabel } from '../../domain/personalData';
import { zonePlaceName } from '../../domain/placeNames';
import type { WorkerHover } from './canvasTypes';

/**
 * The hovered helmet's worker name beside the pointer (an unassigned or anonymous helmet shows its
 * id), and under it where they are: zone, floor and building.
 */
export function WorkerTooltip({ hover, floorPlace }: { hover: WorkerHover; floorPlace: string | null }) {
  const { worker, screen } = hover;
  const place = worker.zone_name ? zonePlaceName(worker.zone_name, floorPlace) : floorPlace;
  return (
    <div
      className="sw-worker-tooltip"
      role="tooltip"
      data-testid="worker-tooltip"
      // The canvas never mirrors, so the tooltip is placed in its (left-to-right) pixels.
      style={{ left: screen.x + 12, top: screen.y + 12 }}
    >
      <bdi>{markerLabel(worker)}</bdi>
      {place && (
        <span className="sw-worker-tooltip__place" data-testid="worker-tooltip-place">
          <bdi>{place}</bdi>
        </span>
      )}
    </div>
  );
}
