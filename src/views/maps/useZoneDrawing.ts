import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isCancelled } from '../../api/apiError';
import { createZone, zonesQuery } from '../../api/floors';
import type { Floor, Zone } from '../../domain/floor';
import {
  type ZoneDrawingEvent,
  type ZoneDrawingSnapshot,
  zoneDrawingMachine,
  zoneDrawingStateOf,
} from '../../machines/zoneDrawing.machine';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { errorMessageOf } from './mapsErrors';

// Narrow selectors: each piece re-renders only its readers.
const selectPhase = (snapshot: ZoneDrawingSnapshot) => zoneDrawingStateOf(snapshot);
const selectVertices = (snapshot: ZoneDrawingSnapshot) => snapshot.context.vertices;
const selectName = (snapshot: ZoneDrawingSnapshot) => snapshot.context.name;
const selectKind = (snapshot: ZoneDrawingSnapshot) => snapshot.context.kind;
const selectError = (snapshot: ZoneDrawingSnapshot) => snapshot.context.error;
const selectBusy = (snapshot: ZoneDrawingSnapshot) => snapshot.hasTag('busy');
const selectCanStart = (snapshot: ZoneDrawingSnapshot) => snapshot.can({ type: 'draw.start', floor: [] });
const selectCanClose = (snapshot: ZoneDrawingSnapshot) => snapshot.can({ type: 'draw.close' });
const selectCanUndo = (snapshot: ZoneDrawingSnapshot) => snapshot.can({ type: 'draw.undo' });
const selectCanSubmit = (snapshot: ZoneDrawingSnapshot) => snapshot.can({ type: 'name.submit' });

/**
 * The zone drawing machine with its real save: POST /floors/{id}/zones, then `save.succeeded`
 * or `save.failed` with the server's message (409 "Zone name already exists!", 422 field text).
 * Changing floor interrupts a drawing; `onCreated` hears of each saved zone.
 */
export function useZoneDrawing(floor: Floor | null, onCreated: (zone: Zone) => void) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const latest = useRef({ floor, onCreated, t });
  latest.current = { floor, onCreated, t };
  const inFlight = useRef<AbortController | null>(null);

  // Provided once: the actions read the current floor and texts through `latest`.
  const [machine] = useState(() =>
    zoneDrawingMachine.provide({
      actions: {
        requestSave: ({ self }, draft) => {
          const target = latest.current.floor;
          if (!target) return;
          const controller = new AbortController();
          inFlight.current = controller;
          createZone(api, target.id, draft, controller.signal).then(
            (zone) => {
              if (controller.signal.aborted) return;
              inFlight.current = null;
              self.send({ type: 'save.succeeded' });
              void queryClient.invalidateQueries({ queryKey: zonesQuery(api, target.id).queryKey });
              void notify({ message: latest.current.t('maps.toast.zoneCreated'), intent: 'success' });
              latest.current.onCreated(zone);
            },
            (error: unknown) => {
              if (controller.signal.aborted || isCancelled(error)) return;
              inFlight.current = null;
              self.send({
                type: 'save.failed',
                message: errorMessageOf(error, latest.current.t('common.somethingWentWrong')),
              });
            },
          );
        },
        abortSave: () => {
          inFlight.current?.abort();
          inFlight.current = null;
        },
      },
    }),
  );
  const actor = useActorRef(machine);

  // Another floor: whatever was being drawn belonged to the old one.
  const floorId = floor?.id ?? null;
  useEffect(() => {
    if (floorId === null) return;
    return () => actor.send({ type: 'draw.interrupt' });
  }, [actor, floorId]);

  const phase = useSelector(actor, selectPhase);
  const vertices = useSelector(actor, selectVertices);
  const name = useSelector(actor, selectName);
  const kind = useSelector(actor, selectKind);
  const error = useSelector(actor, selectError);
  const busy = useSelector(actor, selectBusy);
  const canStart = useSelector(actor, selectCanStart);
  const canClose = useSelector(actor, selectCanClose);
  const canUndo = useSelector(actor, selectCanUndo);
  const canSubmit = useSelector(actor, selectCanSubmit);

  const send = useMemo(() => (event: ZoneDrawingEvent) => actor.send(event), [actor]);

  return { actor, send, phase, vertices, name, kind, error, busy, canStart, canClose, canUndo, canSubmit };
}

export type ZoneDrawing = ReturnType<typeof useZoneDrawing>;
