import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BehaviorSubject } from 'rxjs';
import { isCancelled } from '../../../api/apiError';
import { addWall, deleteWall, editWall, type Wall, wallsQuery } from '../../../api/installationWalls';
import { queryKeys } from '../../../api/queryKeys';
import type { Floor, LongLat } from '../../../domain/floor';
import { cornerRing } from '../../../domain/floorValidation';
import { toLongLat } from '../../../domain/geo';
import { distanceToPolyline } from '../../../domain/wallGeometry';
import {
  type WallDrawingEvent,
  type WallDrawingSnapshot,
  type WallShape,
  wallDrawingMachine,
  wallDrawingStateOf,
} from '../../../machines/wallDrawing.machine';
import type { FloorCanvasHandle } from '../../canvas/FloorCanvas';
import type { CanvasPointerEvent } from '../../canvas/FloorCanvasEngine';
import type { LayerDefinition } from '../../canvas/layers/Layer';
import { type LayerDataSource, layerDataSource } from '../../canvas/layers/layerInputs';
import {
  type DrawnWall,
  type DrawnWalls,
  WALLS,
  type WallLayerState,
  wallsLayerDefinition,
} from '../../canvas/layers/WallsLayer';
import { errorMessageOf } from '../../maps/mapsErrors';
import { notify } from '../../notify';
import { useApi } from '../../session/SessionProvider';
import { machineRequests } from '../../shared/machineRequests';

/** How near (CSS pixels) a press must be to a vertex to drag it. */
const VERTEX_GRAB_PX = 9;
/** How near (CSS pixels) a press must be to a wall's line to pick or move it. */
const LINE_GRAB_PX = 7;
/** A press that moves less than this (CSS pixels) before its release is a click. */
const CLICK_SLOP_PX = 4;
/** Two clicks this close in time (and within CLICK_SLOP_PX) are a double-click. */
const DOUBLE_CLICK_MS = 500;

const NO_WALLS: readonly Wall[] = [];

// Narrow selectors: each piece re-renders only its readers.
const selectPhase = (snapshot: WallDrawingSnapshot) => wallDrawingStateOf(snapshot);
const selectVertices = (snapshot: WallDrawingSnapshot) => snapshot.context.vertices;
const selectName = (snapshot: WallDrawingSnapshot) => snapshot.context.name;
const selectMaterial = (snapshot: WallDrawingSnapshot) => snapshot.context.material;
const selectError = (snapshot: WallDrawingSnapshot) => snapshot.context.error;
const selectSaved = (snapshot: WallDrawingSnapshot) => snapshot.context.saved;
const selectBusy = (snapshot: WallDrawingSnapshot) => snapshot.hasTag('busy');
const selectCanStart = (snapshot: WallDrawingSnapshot) => snapshot.can({ type: 'draw.start', floor: [] });
const selectCanFinish = (snapshot: WallDrawingSnapshot) => snapshot.can({ type: 'draw.finish' });
const selectCanUndo = (snapshot: WallDrawingSnapshot) => snapshot.can({ type: 'draw.undo' });
const selectCanSubmit = (snapshot: WallDrawingSnapshot) => snapshot.can({ type: 'name.submit' });
const selectCanSubmitEdit = (snapshot: WallDrawingSnapshot) => snapshot.can({ type: 'edit.submit' });

export interface UseWallDrawingOptions {
  floor: Floor;
  /** The screen's canvas: its view's zoom turns pixel distances into image ones for picking. */
  canvasRef: RefObject<FloorCanvasHandle | null>;
  /** Whether the user may draw, move, rename and delete walls (DESIGN §4 `installation` write). */
  canWrite: boolean;
}

/** The floor's corner ring a → b → c → d in [long, lat]: the machine keeps every vertex inside. */
export function floorRing(floor: Floor): LongLat[] {
  return cornerRing(floor.coordinates).map(([long, lat]): LongLat => [long, lat]);
}

function shapeOf(wall: Wall): WallShape {
  return { id: wall.id, name: wall.name, material: wall.material, points: wall.points };
}

/** The walls with `wall` in its place (or added), in the server's order: lower-cased name, then id. */
function withWall(walls: readonly Wall[] | undefined, wall: Wall): Wall[] {
  const others = (walls ?? []).filter((item) => item.id !== wall.id);
  const key = (item: Wall) => item.name.toLowerCase();
  return [...others, wall].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id));
}

/**
 * Walls on the installation canvas (issue 19): the floor's wall list, the wall drawing machine
 * with its real requests (add, edit, delete under /api/installation/wall), the `walls` layer's
 * definition and data, and the canvas pointer turned into machine events. The screen adds `layer`
 * to its canvas's registry, passes `layerData` with its own, hands canvas pointer events to
 * `onPointer` (which answers whether walls took it), and renders `<WallsPanel walls={…} />`.
 * While a wall is drawn or edited, Escape cancels, and while drawing Enter finishes and
 * Backspace or Ctrl/⌘+Z undoes (those key events are marked handled: `defaultPrevented`).
 */
export function useWallDrawing({ floor, canvasRef, canWrite }: UseWallDrawingOptions) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const walls = useQuery(wallsQuery(api, floor.id));
  const list = walls.data ?? NO_WALLS;
  const latest = useRef({ floor, t, list });
  latest.current = { floor, t, list };
  const [requests] = useState(machineRequests);

  // Provided once: the actions read the current floor and texts through `latest`.
  const [machine] = useState(() => {
    /** One request at a time; a refusal reaches the machine as its message, a cancelled one not at all. */
    const run = <T>(
      request: (signal: AbortSignal) => Promise<T>,
      done: (result: T) => void,
      failed: (message: string) => void,
    ) =>
      requests.run(request, done, (error) => {
        if (!isCancelled(error)) failed(errorMessageOf(error, latest.current.t('common.somethingWentWrong')));
      });
    const refreshPlan = (floorId: number) => {
      // The coverage and measured links depend on the walls too: the floor's whole plan is refreshed.
      void queryClient.invalidateQueries({ queryKey: queryKeys.installation.floor(floorId) });
    };
    return wallDrawingMachine.provide({
      actions: {
        requestSave: ({ self }, draft) => {
          const floorId = latest.current.floor.id;
          run(
            (signal) => addWall(api, { floor_id: floorId, ...draft }, signal),
            (wall) => {
              queryClient.setQueryData(wallsQuery(api, floorId).queryKey, (known) => withWall(known, wall));
              refreshPlan(floorId);
              self.send({ type: 'save.succeeded' });
              // The new wall stays selected, to be moved or renamed straight away.
              self.send({ type: 'wall.select', wall: shapeOf(wall), floor: floorRing(latest.current.floor) });
              void notify({
                message: latest.current.t('installation.walls.toast.created'),
                intent: 'success',
              });
            },
            (message) => self.send({ type: 'save.failed', message }),
          );
        },
        requestUpdate: ({ self }, change) => {
          const floorId = latest.current.floor.id;
          run(
            (signal) => editWall(api, change, signal),
            (wall) => {
              queryClient.setQueryData(wallsQuery(api, floorId).queryKey, (known) => withWall(known, wall));
              refreshPlan(floorId);
              self.send({ type: 'save.succeeded' });
              void notify({
                message: latest.current.t('installation.walls.toast.updated'),
                intent: 'success',
              });
            },
            (message) => self.send({ type: 'save.failed', message }),
          );
        },
        requestDelete: ({ self }, { id }) => {
          const floorId = latest.current.floor.id;
          run(
            (signal) => deleteWall(api, id, signal),
            () => {
              queryClient.setQueryData(wallsQuery(api, floorId).queryKey, (known) =>
                known?.filter((wall) => wall.id !== id),
              );
              refreshPlan(floorId);
              self.send({ type: 'delete.succeeded' });
              void notify({
                message: latest.current.t('installation.walls.toast.deleted'),
                intent: 'success',
              });
            },
            (message) => self.send({ type: 'delete.failed', message }),
          );
        },
        abortRequest: () => {
          requests.abort();
          // What the aborted request did (or not) is the server's: ask again.
          refreshPlan(latest.current.floor.id);
        },
      },
    });
  });
  const actor = useActorRef(machine);

  // Another floor (or the screen going away): whatever was drawn or selected belonged to the old one.
  const floorId = floor.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the cleanup runs when the floor changes, by design.
  useEffect(() => () => actor.send({ type: 'draw.interrupt' }), [actor, floorId]);

  const phase = useSelector(actor, selectPhase);
  const vertices = useSelector(actor, selectVertices);
  const name = useSelector(actor, selectName);
  const material = useSelector(actor, selectMaterial);
  const error = useSelector(actor, selectError);
  const saved = useSelector(actor, selectSaved);
  const busy = useSelector(actor, selectBusy);
  const canStart = useSelector(actor, selectCanStart);
  const canFinish = useSelector(actor, selectCanFinish);
  const canUndo = useSelector(actor, selectCanUndo);
  const canSubmit = useSelector(actor, selectCanSubmit);
  const canSubmitEdit = useSelector(actor, selectCanSubmitEdit);
  const selectedId = saved?.id ?? null;

  // A selected wall someone else deleted is no longer there to edit.
  useEffect(() => {
    if (
      phase === 'selected' &&
      selectedId !== null &&
      walls.isSuccess &&
      !list.some((w) => w.id === selectedId)
    ) {
      actor.send({ type: 'wall.deselect' });
    }
  }, [actor, phase, selectedId, list, walls.isSuccess]);

  // ---- the layer: its definition (hit-testing reads what it drew) and its data
  const drawn = useRef<DrawnWalls>({ walls: [], draft: [] });
  const [layer] = useState<LayerDefinition>(() =>
    wallsLayerDefinition((walls) => {
      drawn.current = walls;
    }),
  );
  const [layer$] = useState(
    () => new BehaviorSubject<WallLayerState>({ walls: [], selectedId: null, edited: null, draft: null }),
  );
  const [layerData] = useState<readonly LayerDataSource[]>(() => [layerDataSource(WALLS, layer$)]);
  const drafting = phase === 'drawing' || phase === 'naming' || phase === 'saving';
  useEffect(() => {
    layer$.next({
      walls: list,
      selectedId,
      edited: selectedId !== null ? vertices : null,
      draft: drafting ? vertices : null,
    });
  }, [layer$, list, selectedId, vertices, drafting]);

  // ---- the pointer
  const press = useRef<
    | { kind: 'draftVertex'; index: number; x: number; y: number; moved: boolean }
    | { kind: 'draft' }
    | { kind: 'empty'; x: number; y: number }
    | null
  >(null);

  // The last click's release while drawing: a second one on it soon after ends the wall, whether or
  // not the screen passes the browser's dblclick on.
  const lastClick = useRef<{ x: number; y: number; at: number } | null>(null);

  /** Screen pixels per image pixel: the canvas's zoom. */
  const zoom = () => canvasRef.current?.engine?.getView().scale ?? 1;

  function nearestVertex(
    event: CanvasPointerEvent,
    points: readonly { x: number; y: number }[],
  ): number | null {
    const scale = zoom();
    let best: number | null = null;
    let bestDistance = VERTEX_GRAB_PX;
    points.forEach((p, index) => {
      const distance = Math.hypot(p.x - event.image.x, p.y - event.image.y) * scale;
      if (distance <= bestDistance) {
        best = index;
        bestDistance = distance;
      }
    });
    return best;
  }

  /** The wall under the pointer: the selected one when it is near, else the nearest near one, or null. */
  function wallAt(event: CanvasPointerEvent): DrawnWall | null {
    const scale = zoom();
    const at: [number, number] = [event.image.x, event.image.y];
    let best: DrawnWall | null = null;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const wall of drawn.current.walls) {
      const line = wall.points.map((p): [number, number] => [p.x, p.y]);
      const distance = distanceToPolyline(at, line) * scale;
      if (distance > LINE_GRAB_PX) continue;
      if (wall.selected) return wall;
      if (distance < bestDistance) {
        best = wall;
        bestDistance = distance;
      }
    }
    return best;
  }

  const onPointer = (event: CanvasPointerEvent): boolean => {
    const snapshot = actor.getSnapshot();
    const state = wallDrawingStateOf(snapshot);
    const point = toLongLat(event.geo);
    if (state === 'drawing') {
      switch (event.type) {
        case 'down': {
          if (event.button !== 0) return false;
          // Drawing owns the press: the canvas neither pans nor selects under it.
          event.claim();
          const index = nearestVertex(event, drawn.current.draft);
          press.current =
            index === null
              ? { kind: 'draft' }
              : { kind: 'draftVertex', index, x: event.screen.x, y: event.screen.y, moved: false };
          return true;
        }
        case 'move': {
          const pressed = press.current;
          if (pressed?.kind === 'draftVertex') {
            if (Math.hypot(event.screen.x - pressed.x, event.screen.y - pressed.y) >= CLICK_SLOP_PX) {
              pressed.moved = true;
            }
            if (pressed.moved) actor.send({ type: 'vertex.drag', index: pressed.index, point });
          }
          return true;
        }
        case 'up': {
          const pressed = press.current;
          press.current = null;
          const now = performance.now();
          const last = lastClick.current;
          const again =
            last !== null &&
            now - last.at <= DOUBLE_CLICK_MS &&
            Math.hypot(event.screen.x - last.x, event.screen.y - last.y) < CLICK_SLOP_PX;
          const clicked = pressed?.kind === 'draft' || (pressed?.kind === 'draftVertex' && !pressed.moved);
          if (clicked) lastClick.current = again ? null : { x: event.screen.x, y: event.screen.y, at: now };
          if (pressed?.kind === 'draft') actor.send({ type: 'pointer.click', point });
          if (clicked && again) actor.send({ type: 'pointer.dblclick' });
          return true;
        }
        case 'dblclick':
          actor.send({ type: 'pointer.dblclick' });
          return true;
      }
    }
    if (state === 'moving') {
      if (event.type === 'move') actor.send({ type: 'pointer.move', point });
      else if (event.type === 'up') actor.send({ type: 'move.end' });
      return true;
    }
    if (state !== 'idle' && state !== 'selected') return false;
    if (event.type === 'down' && event.button === 0) {
      const wall = wallAt(event);
      if (!wall) {
        press.current = { kind: 'empty', x: event.screen.x, y: event.screen.y };
        return false;
      }
      press.current = null;
      event.claim();
      if (wall.selected && canWrite) {
        const index = nearestVertex(event, wall.points);
        if (index !== null) actor.send({ type: 'vertex.grab', index });
        else actor.send({ type: 'move.start', point });
        return true;
      }
      const stored = latest.current.list.find((item) => item.id === wall.id);
      if (stored)
        actor.send({ type: 'wall.select', wall: shapeOf(stored), floor: floorRing(latest.current.floor) });
      return true;
    }
    if (event.type === 'up' && press.current?.kind === 'empty') {
      const { x, y } = press.current;
      press.current = null;
      // A click on the empty floor (not the end of a pan) lets go of the selected wall.
      if (state === 'selected' && Math.hypot(event.screen.x - x, event.screen.y - y) < CLICK_SLOP_PX) {
        actor.send({ type: 'wall.deselect' });
        return true;
      }
    }
    return false;
  };

  // ---- the keyboard
  useEffect(() => {
    if (phase === 'idle') return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        // An open dialog (the delete confirmation) closes itself first. The canvas marks every
        // Escape it hears handled (it clears its zone selection), so that mark is not asked about.
        if (phase === 'confirming') return;
        event.preventDefault();
        actor.send({ type: 'draw.cancel' });
        return;
      }
      if (event.defaultPrevented || phase !== 'drawing' || isTyping(event.target)) return;
      if (event.key === 'Enter') {
        event.preventDefault();
        actor.send({ type: 'draw.finish' });
      } else if (event.key === 'Backspace' || (event.key === 'z' && (event.ctrlKey || event.metaKey))) {
        event.preventDefault();
        actor.send({ type: 'draw.undo' });
      }
    };
    // Captured: something on the page (measured in Chromium) stops an Escape's propagation before
    // it bubbles back up to the window.
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [actor, phase]);

  const send = useMemo(() => (event: WallDrawingEvent) => actor.send(event), [actor]);
  const selectWall = useMemo(
    () => (wall: Wall | null) =>
      wall === null
        ? actor.send({ type: 'wall.deselect' })
        : actor.send({ type: 'wall.select', wall: shapeOf(wall), floor: floorRing(latest.current.floor) }),
    [actor],
  );
  const startDrawing = useMemo(
    () => (material: Wall['material']) =>
      actor.send({ type: 'draw.start', floor: floorRing(latest.current.floor), material }),
    [actor],
  );

  return {
    actor,
    send,
    /** The floor's walls, sorted by name (the server's order). */
    walls: list,
    loading: walls.isPending,
    loadError: walls.isError,
    canWrite,
    phase,
    vertices,
    name,
    material,
    error,
    busy,
    selectedId,
    /** The selected wall as stored, or null. */
    selected: saved,
    canStart,
    canFinish,
    canUndo,
    canSubmit,
    canSubmitEdit,
    selectWall,
    startDrawing,
    /** Add to the canvas's registry (e.g. `withLayer(FLOOR_LAYERS, walls.layer, 'workers')`), once. */
    layer,
    /** Pass to FloorCanvas's `layerData` with the screen's own (a stable array). */
    layerData,
    /** Canvas pointer events; true when walls took the event (the screen then leaves it be). */
    onPointer,
  };
}

export type WallDrawing = ReturnType<typeof useWallDrawing>;

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON'].includes(target.tagName))
  );
}
