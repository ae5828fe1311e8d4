import { createActor, type EventFrom } from 'xstate';
import type { ApproveAnchorBody, UnapprovedAnchor } from '../../../src/domain/schemas/installation';
import {
  type AnchorApprovalInput,
  anchorApprovalMachine,
} from '../../../src/machines/anchorApproval.machine';

export type AnchorApprovalEffect = { type: 'requestSave'; params: ApproveAnchorBody } | { type: 'abortSave' };

export const FLOOR_ID = 70;
export const SETTINGS = { tolerance_m: 0.5, min_link_quality: 50 };
export const NOW = Date.parse('2025-03-01T10:00:00.000Z');
const RECENT = '2025-03-01T09:59:00.000Z';

/** Installed 0.2 m north of its planning anchor P-03, link quality 80: it passes. */
export const NEAR: UnapprovedAnchor = {
  inventory_id: 101,
  wnt_inventory_id: 'ANC-0101',
  network_id: 5,
  floor_id: FLOOR_ID,
  computed: { lat: 25.2000018, long: 55.27 },
  link_quality: 80,
  last_seen: RECENT,
  planning_anchor: { id: 31, anchor_id: 'P-03', lat: 25.2, long: 55.27, distance_m: 0.2 },
};

/** Installed 1.2 m north of P-04, link quality 22: both checks fail. */
export const FAR: UnapprovedAnchor = {
  inventory_id: 102,
  wnt_inventory_id: 'ANC-0102',
  network_id: 5,
  floor_id: FLOOR_ID,
  computed: { lat: 25.2010108, long: 55.271 },
  link_quality: 22,
  last_seen: RECENT,
  planning_anchor: { id: 32, anchor_id: 'P-04', lat: 25.201, long: 55.271, distance_m: 1.2 },
};

/** Reported on no floor, with no position, no link quality and no planning anchor near. */
export const SILENT: UnapprovedAnchor = {
  inventory_id: 103,
  wnt_inventory_id: 'ANC-0103',
  network_id: null,
  floor_id: null,
  computed: null,
  link_quality: null,
  last_seen: null,
  planning_anchor: null,
};

/** Where NEAR's computed position is, dragged onto the canvas by hand. */
export const DRAGGED = { lat: 25.2000018, long: 55.27 };

export const planningPoint = (anchor: UnapprovedAnchor) => ({
  lat: anchor.planning_anchor?.lat ?? Number.NaN,
  long: anchor.planning_anchor?.long ?? Number.NaN,
});

/** The approval machine with its two effects recorded instead of calling a server. */
export function startAnchorApproval(input: AnchorApprovalInput = { settings: SETTINGS, floorId: FLOOR_ID }) {
  const effects: AnchorApprovalEffect[] = [];
  const machine = anchorApprovalMachine.provide({
    actions: {
      requestSave: (_, params) => {
        effects.push({ type: 'requestSave', params });
      },
      abortSave: () => {
        effects.push({ type: 'abortSave' });
      },
    },
  });
  const actor = createActor(machine, { input }).start();
  return {
    actor,
    effects,
    snapshot: () => actor.getSnapshot(),
    /** Sends one event and answers the effects it caused. */
    send(event: EventFrom<typeof anchorApprovalMachine>): AnchorApprovalEffect[] {
      const before = effects.length;
      actor.send(event);
      return effects.slice(before);
    },
  };
}

export type AnchorApprovalHarness = ReturnType<typeof startAnchorApproval>;
