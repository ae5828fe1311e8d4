import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ElectricalRoomStep } from '../domain/electricalRoomChecklist';
import {
  type ElectricalRoom,
  type ElectricalRoomBody,
  type ElectricalRoomDeviceBody,
  type ElectricalRoomEditBody,
  ElectricalRoomSchema,
  ElectricalRoomStepStateSchema,
  type SiteElectricalRooms,
  SiteElectricalRoomsSchema,
} from '../domain/schemas/electricalRooms';
import { UnreadDataSchema } from '../domain/schemas/replies';
import { type NetworkReply, NetworkSchema } from '../domain/schemas/sites';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';

/**
 * Electrical RM installation: a site's electrical rooms (GET /api/sites/{id}/electrical-rooms),
 * their writes under /api/buildings/{id}/electrical-rooms and /api/electrical-rooms/{id}, and the
 * networks not yet on a site (GET /api/networks/unassigned, PATCH /api/networks/{id}).
 */

export type { ElectricalRoom, NetworkReply, SiteElectricalRooms };

/** Device statuses change with every report (gateways report every 10–60 s). */
export const ELECTRICAL_ROOMS_POLL_MS = 15_000;

export function fetchSiteElectricalRooms(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<SiteElectricalRooms> {
  return api.get(`/sites/${siteId}/electrical-rooms`, SiteElectricalRoomsSchema, { signal });
}

export async function fetchUnassignedNetworks(api: ApiClient, signal?: AbortSignal): Promise<NetworkReply[]> {
  const { data } = await api.list('/networks/unassigned', NetworkSchema, { signal });
  return data;
}

export function siteElectricalRoomsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.electricalRooms.bySite(siteId),
    queryFn: ({ signal }) => fetchSiteElectricalRooms(api, siteId, signal),
  });
}

/** The site's rooms, asked again every ELECTRICAL_ROOMS_POLL_MS while the screen is open. */
export function useSiteElectricalRooms(api: ApiClient, siteId: number | null) {
  return useQuery({
    ...siteElectricalRoomsQuery(api, siteId ?? 0),
    enabled: siteId !== null,
    refetchInterval: ELECTRICAL_ROOMS_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

export function useUnassignedNetworks(api: ApiClient, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.electricalRooms.unassignedNetworks(),
    queryFn: ({ signal }) => fetchUnassignedNetworks(api, signal),
    enabled,
  });
}

/**
 * Every write of the screen, each refreshing the site's rooms and the unassigned networks before
 * it settles, so the screen shows the change when the success toast does.
 */
export function useElectricalRoomWrites(api: ApiClient, siteId: number) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: queryKeys.electricalRooms.all });
  const assignNetwork = useMutation({
    mutationFn: (networkId: number) =>
      api.send('PATCH', `/networks/${networkId}`, NetworkSchema, { body: { site_id: siteId } }),
    onSuccess,
  });
  const createRoom = useMutation({
    mutationFn: ({ buildingId, body }: { buildingId: number; body: ElectricalRoomBody }) =>
      api.send('POST', `/buildings/${buildingId}/electrical-rooms`, ElectricalRoomSchema, { body }),
    onSuccess,
  });
  const editRoom = useMutation({
    mutationFn: ({ roomId, body }: { roomId: number; body: ElectricalRoomEditBody }) =>
      api.send('POST', `/electrical-rooms/${roomId}`, ElectricalRoomSchema, { body }),
    onSuccess,
  });
  const deleteRoom = useMutation({
    mutationFn: (roomId: number) => api.send('DELETE', `/electrical-rooms/${roomId}`, UnreadDataSchema),
    onSuccess,
  });
  const addDevice = useMutation({
    mutationFn: ({ roomId, body }: { roomId: number; body: ElectricalRoomDeviceBody }) =>
      api.send('POST', `/electrical-rooms/${roomId}/devices`, ElectricalRoomSchema, { body }),
    onSuccess,
  });
  const removeDevice = useMutation({
    mutationFn: ({ roomId, deviceId }: { roomId: number; deviceId: number }) =>
      api.send('DELETE', `/electrical-rooms/${roomId}/devices/${deviceId}`, ElectricalRoomSchema),
    onSuccess,
  });
  const setStep = useMutation({
    mutationFn: ({ roomId, step, done }: { roomId: number; step: ElectricalRoomStep; done: boolean }) =>
      api.send('PUT', `/electrical-rooms/${roomId}/steps/${step}`, ElectricalRoomStepStateSchema, {
        body: { done },
      }),
    onSuccess,
  });
  return { assignNetwork, createRoom, editRoom, deleteRoom, addDevice, removeDevice, setStep };
}
