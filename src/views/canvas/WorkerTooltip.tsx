import { markerLabel } from '../../domain/personalData';
import type { WorkerHover } from './canvasTypes';

/** The hovered helmet's worker name beside the pointer; an unassigned or anonymous helmet shows its id. */
export function WorkerTooltip({ hover }: { hover: WorkerHover }) {
  const { worker, screen } = hover;
  return (
    <div
      className="sw-worker-tooltip"
      role="tooltip"
      data-testid="worker-tooltip"
      // The canvas never mirrors, so the tooltip is placed in its (left-to-right) pixels.
      style={{ left: screen.x + 12, top: screen.y + 12 }}
    >
      <bdi>{markerLabel(worker)}</bdi>
    </div>
  );
}
