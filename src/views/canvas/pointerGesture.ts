import { panBy, type ScreenPoint, type ViewState } from './viewport';

/** Movement (CSS pixels) below which a press is still a click rather than a drag. */
export const DRAG_THRESHOLD = 4;

/**
 * The canvas's own pointer gesture, a tiny state chart (tldraw's idle → pointing → dragging):
 * - idle: nothing pressed.
 * - pointing: pressed, not yet moved far; releasing is a click (select what is under it).
 * - panning: dragging the view; releasing keeps it, cancelling puts it back.
 * A press someone else claimed (the Maps screen drawing a zone) is followed but never pans or
 * selects. Cancel (pointercancel, Escape, lost capture, blur) returns to idle from any state.
 */
export type GestureState =
  | { readonly kind: 'idle' }
  | {
      readonly kind: 'pointing';
      readonly pointerId: number;
      readonly start: ScreenPoint;
      readonly view: ViewState;
      readonly claimed: boolean;
    }
  | {
      readonly kind: 'panning';
      readonly pointerId: number;
      readonly start: ScreenPoint;
      readonly view: ViewState;
    };

export type GestureEvent =
  | {
      readonly type: 'down';
      readonly pointerId: number;
      readonly at: ScreenPoint;
      readonly view: ViewState;
      readonly claimed: boolean;
    }
  | { readonly type: 'move'; readonly pointerId: number; readonly at: ScreenPoint }
  | { readonly type: 'up'; readonly pointerId: number; readonly at: ScreenPoint }
  | { readonly type: 'cancel' };

export type GestureEffect =
  | { readonly type: 'setView'; readonly view: ViewState }
  | { readonly type: 'click'; readonly at: ScreenPoint }
  | { readonly type: 'capture'; readonly pointerId: number };

export const IDLE: GestureState = { kind: 'idle' };

export function gestureTransition(
  state: GestureState,
  event: GestureEvent,
): { state: GestureState; effects: GestureEffect[] } {
  switch (state.kind) {
    case 'idle':
      if (event.type !== 'down') return { state, effects: [] };
      return {
        state: {
          kind: 'pointing',
          pointerId: event.pointerId,
          start: event.at,
          view: event.view,
          claimed: event.claimed,
        },
        effects: [],
      };
    case 'pointing':
      if (event.type === 'cancel') return { state: IDLE, effects: [] };
      if (event.type === 'down' || event.pointerId !== state.pointerId) return { state, effects: [] };
      if (event.type === 'up') {
        return { state: IDLE, effects: state.claimed ? [] : [{ type: 'click', at: event.at }] };
      }
      if (state.claimed) return { state, effects: [] };
      if (Math.hypot(event.at.x - state.start.x, event.at.y - state.start.y) < DRAG_THRESHOLD) {
        return { state, effects: [] };
      }
      return {
        state: { kind: 'panning', pointerId: state.pointerId, start: state.start, view: state.view },
        effects: [
          { type: 'capture', pointerId: state.pointerId },
          {
            type: 'setView',
            view: panBy(state.view, event.at.x - state.start.x, event.at.y - state.start.y),
          },
        ],
      };
    case 'panning':
      // Interrupted: the view goes back to where the drag began.
      if (event.type === 'cancel') return { state: IDLE, effects: [{ type: 'setView', view: state.view }] };
      if (event.type === 'down' || event.pointerId !== state.pointerId) return { state, effects: [] };
      if (event.type === 'up') return { state: IDLE, effects: [] };
      return {
        state,
        effects: [
          {
            type: 'setView',
            view: panBy(state.view, event.at.x - state.start.x, event.at.y - state.start.y),
          },
        ],
      };
  }
}
