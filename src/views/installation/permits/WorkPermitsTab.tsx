import type { Floor } from '../../../domain/floor';

/** The installation screen's "Work permits" tab: a floor's permits on its canvas and in a list. */
export function WorkPermitsTab(props: { floor: Floor; siteId: number; clientId: number }) {
  return <div className="work-permits-tab" data-floor-id={props.floor.id} />;
}
