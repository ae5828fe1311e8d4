import { type Static, Type } from 'typebox';
import { ELECTRICAL_ROOM_STEPS } from '../electricalRoomChecklist';
import {
  GATEWAY_CONNECTION_STATES,
  SINK_CONNECTION_STATES,
  SINK_POWER_STATES,
} from '../electricalRoomStatus';
import { LIMITS } from '../limits';
import { SafeString } from '../text';
import { IdSchema, MAX_ROW_ID } from './sites';

/**
 * Request and reply schemas of the electrical rooms (issue 19 "Electrical RM installation"):
 * GET /api/sites/{id}/electrical-rooms, POST /api/buildings/{id}/electrical-rooms, POST and
 * DELETE /api/electrical-rooms/{id}, POST /api/electrical-rooms/{id}/devices, DELETE
 * /api/electrical-rooms/{id}/devices/{deviceId}, PUT /api/electrical-rooms/{id}/steps/{step}.
 */

const literals = <T extends string>(values: readonly T[]) =>
  Type.Unsafe<T>(Type.Union(values.map((value) => Type.Literal(value))));

// `type: ['integer', 'null']`, not anyOf, so a bad id is "<Label> is invalid" and not two errors.
const NullableIdSchema = Type.Unsafe<number | null>({
  type: ['integer', 'null'],
  minimum: 1,
  maximum: MAX_ROW_ID,
});

export const ElectricalRoomStepKeySchema = literals(ELECTRICAL_ROOM_STEPS);

export const ElectricalRoomBodySchema = Type.Object({
  name: SafeString({ minLength: 1, maxLength: LIMITS.nameMax }),
  /** The floor of the building the room is on; left out or null: not on a floor plan. */
  floor_id: Type.Optional(NullableIdSchema),
});

/** An edit sends what changed; `floor_id: null` takes the room off its floor. */
export const ElectricalRoomEditBodySchema = Type.Partial(ElectricalRoomBodySchema);

/** Exactly one of the two: a sink (an inventory item of type sink) or a gateway (a network). */
export const ElectricalRoomDeviceBodySchema = Type.Object({
  inventory_id: Type.Optional(IdSchema),
  network_id: Type.Optional(IdSchema),
});

export const ElectricalRoomDeviceParamsSchema = Type.Object({ id: IdSchema, deviceId: IdSchema });

/** The step is checked by the route, so an unknown one is a 422 naming the step. */
export const ElectricalRoomStepParamsSchema = Type.Object({
  id: IdSchema,
  step: SafeString({ minLength: 1, maxLength: 40 }),
});

export const ElectricalRoomStepBodySchema = Type.Object({ done: Type.Boolean() });

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

export const ElectricalRoomSinkSchema = Type.Object({
  /** The room's device row (what DELETE …/devices/{deviceId} names). */
  id: IdSchema,
  kind: Type.Literal('sink'),
  inventory_id: IdSchema,
  /** The sink's WNT inventory id. */
  name: Type.String(),
  last_report_at: NullableString,
  supply_voltage: NullableNumber,
  power: literals(SINK_POWER_STATES),
  connection: literals(SINK_CONNECTION_STATES),
});

export const ElectricalRoomGatewaySchema = Type.Object({
  id: IdSchema,
  kind: Type.Literal('gateway'),
  network_id: IdSchema,
  /** The network's name. */
  name: Type.String(),
  /** The latest report of any node of the network. */
  last_report_at: NullableString,
  connection: literals(GATEWAY_CONNECTION_STATES),
});

export const ElectricalRoomDeviceSchema = Type.Union([ElectricalRoomSinkSchema, ElectricalRoomGatewaySchema]);

export const ElectricalRoomStepStateSchema = Type.Object({
  step: ElectricalRoomStepKeySchema,
  done: Type.Boolean(),
  /** Who ticked it (null when not done, or the user was deleted). */
  completed_by: Type.Union([Type.Object({ id: IdSchema, name: Type.String() }), Type.Null()]),
  completed_at: NullableString,
});

export const ElectricalRoomSchema = Type.Object({
  id: IdSchema,
  building_id: IdSchema,
  floor_id: Type.Union([IdSchema, Type.Null()]),
  floor_name: NullableString,
  name: Type.String(),
  devices: Type.Array(ElectricalRoomDeviceSchema),
  /** Every step of the checklist, in its order. */
  steps: Type.Array(ElectricalRoomStepStateSchema),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const ElectricalRoomBuildingSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  /** The building's floors (highest first), what a room may be put on. */
  floors: Type.Array(Type.Object({ id: IdSchema, name: Type.String() })),
  rooms: Type.Array(ElectricalRoomSchema),
});

export const SiteElectricalRoomsSchema = Type.Object({
  site_id: IdSchema,
  /** The instant the statuses were judged at. */
  checked_at: Type.String(),
  /** NETWORK_SILENCE: a gateway none of whose nodes was heard this long is disconnected. */
  network_silence_seconds: Type.Number(),
  buildings: Type.Array(ElectricalRoomBuildingSchema),
  /** The site's sinks and networks not installed in any room: what may be added. */
  available: Type.Object({
    sinks: Type.Array(Type.Object({ id: IdSchema, name: Type.String() })),
    networks: Type.Array(Type.Object({ id: IdSchema, name: Type.String() })),
  }),
});

export const electricalRoomMessages = {
  updated: 'Electrical room is updated successfully',
  floorOfOtherBuilding: "The floor must be one of the room's building",
  deviceRequired: 'Choose a sink or a gateway',
  oneDevice: 'Choose a sink or a gateway, not both',
  notASink: 'Only a sink can be installed in an electrical room',
  networkNotAssigned: 'Assign the network to the site first',
  alreadyInstalled: 'This device is already installed in an electrical room',
  deviceAdded: 'Device is added to the electrical room',
  deviceRemoved: 'Device is removed from the electrical room',
  stepDone: 'Step is marked done',
  stepUndone: 'Step is marked not done',
} as const;

export type ElectricalRoomBody = Static<typeof ElectricalRoomBodySchema>;
export type ElectricalRoomEditBody = Static<typeof ElectricalRoomEditBodySchema>;
export type ElectricalRoomDeviceBody = Static<typeof ElectricalRoomDeviceBodySchema>;
export type ElectricalRoomSink = Static<typeof ElectricalRoomSinkSchema>;
export type ElectricalRoomGateway = Static<typeof ElectricalRoomGatewaySchema>;
export type ElectricalRoomDevice = Static<typeof ElectricalRoomDeviceSchema>;
export type ElectricalRoomStepState = Static<typeof ElectricalRoomStepStateSchema>;
export type ElectricalRoom = Static<typeof ElectricalRoomSchema>;
export type ElectricalRoomBuilding = Static<typeof ElectricalRoomBuildingSchema>;
export type SiteElectricalRooms = Static<typeof SiteElectricalRoomsSchema>;
