import type { Intent } from '@blueprintjs/core';
import type { GatewayConnection, SinkConnection, SinkPower } from '../../domain/electricalRoomStatus';
import type { ElectricalRoom, SiteElectricalRooms } from '../../domain/schemas/electricalRooms';

export const POWER_INTENT: Record<SinkPower, Intent> = { mains: 'success', low: 'danger', unknown: 'none' };

export const CONNECTION_INTENT: Record<SinkConnection | GatewayConnection, Intent> = {
  connected: 'success',
  stale: 'warning',
  silent: 'danger',
  disconnected: 'danger',
};

export interface SiteNetworkRow {
  id: number;
  name: string;
  /** The room whose gateway it is; null while in no room. */
  room: string | null;
}

/** The site's networks: the gateways of its rooms and the networks in no room, by name. */
export function siteNetworks(data: SiteElectricalRooms): SiteNetworkRow[] {
  const rows: SiteNetworkRow[] = data.buildings.flatMap((building) =>
    building.rooms.flatMap((room: ElectricalRoom) =>
      room.devices.flatMap((device) =>
        device.kind === 'gateway' ? [{ id: device.network_id, name: device.name, room: room.name }] : [],
      ),
    ),
  );
  rows.push(...data.available.networks.map((network) => ({ ...network, room: null })));
  return rows.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}
