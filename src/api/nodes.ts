import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type MaintenanceSettings,
  MaintenanceSettingsSchema,
  type NodeHistory,
  NodeHistorySchema,
  type SiteNodes,
  SiteNodesSchema,
} from '../domain/schemas/nodes';
import type { ApiClient, DataReply } from './client';
import { queryKeys } from './queryKeys';

/**
 * A site's anchors and sinks (GET /api/sites/{id}/nodes), one node's history
 * (GET …/nodes/{nodeId}/history?from&to) and the site's maintenance settings (GET and PUT
 * /api/sites/{id}/maintenance-settings).
 */

export type { MaintenanceSettings, NodeHistory, SiteNodes };

/** How often an open Nodes or Maintenance screen asks for the list again: gateways report every 10–60 s. */
export const SITE_NODES_POLL_MS = 10_000;

const HOUR_MS = 3_600_000;

export function fetchSiteNodes(api: ApiClient, siteId: number, signal?: AbortSignal): Promise<SiteNodes> {
  return api.get(`/sites/${siteId}/nodes`, SiteNodesSchema, { signal });
}

export function fetchNodeHistory(
  api: ApiClient,
  siteId: number,
  nodeId: string,
  range: { from: Date; to: Date },
  signal?: AbortSignal,
): Promise<NodeHistory> {
  return api.get(`/sites/${siteId}/nodes/${encodeURIComponent(nodeId)}/history`, NodeHistorySchema, {
    query: { from: range.from.toISOString(), to: range.to.toISOString() },
    signal,
  });
}

export function fetchMaintenanceSettings(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<MaintenanceSettings> {
  return api.get(`/sites/${siteId}/maintenance-settings`, MaintenanceSettingsSchema, { signal });
}

/** Saves them; the reply carries what was stored and the server's message. */
export function saveMaintenanceSettings(
  api: ApiClient,
  siteId: number,
  settings: MaintenanceSettings,
): Promise<DataReply<MaintenanceSettings>> {
  return api.send('PUT', `/sites/${siteId}/maintenance-settings`, MaintenanceSettingsSchema, {
    body: settings,
  });
}

export function siteNodesQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.nodes.bySite(siteId),
    queryFn: ({ signal }) => fetchSiteNodes(api, siteId, signal),
  });
}

/** The site's nodes, asked again every SITE_NODES_POLL_MS while the calling screen is mounted. */
export function useSiteNodes(api: ApiClient, siteId: number | null) {
  return useQuery({
    ...siteNodesQuery(api, siteId ?? 0),
    enabled: siteId !== null,
    refetchInterval: SITE_NODES_POLL_MS,
    // The list polled with the screen in a background tab is wasted work: the screen catches up on focus.
    refetchIntervalInBackground: false,
  });
}

/** One node's last `hours`; the window ends when it is fetched, so a refetch moves it forward. */
export function nodeHistoryQuery(api: ApiClient, siteId: number, nodeId: string, hours: number) {
  return queryOptions({
    queryKey: queryKeys.nodes.history(siteId, nodeId, hours),
    queryFn: ({ signal }) => {
      const to = new Date();
      return fetchNodeHistory(
        api,
        siteId,
        nodeId,
        { from: new Date(to.getTime() - hours * HOUR_MS), to },
        signal,
      );
    },
    staleTime: 60_000,
  });
}

export function useNodeHistory(api: ApiClient, siteId: number, nodeId: string | null, hours: number) {
  return useQuery({
    ...nodeHistoryQuery(api, siteId, nodeId ?? '', hours),
    enabled: nodeId !== null,
    // Another range or node keeps the chart of the previous one until its own arrives.
    placeholderData: (previous) => previous,
  });
}

export function maintenanceSettingsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.nodes.maintenanceSettings(siteId),
    queryFn: ({ signal }) => fetchMaintenanceSettings(api, siteId, signal),
  });
}

export function useMaintenanceSettings(api: ApiClient, siteId: number | null) {
  return useQuery({ ...maintenanceSettingsQuery(api, siteId ?? 0), enabled: siteId !== null });
}

/**
 * Saves the site's settings, puts what was stored in the cache and asks for the site's nodes again:
 * their health was judged with the old threshold.
 */
export function useSaveMaintenanceSettings(api: ApiClient, siteId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: MaintenanceSettings) => saveMaintenanceSettings(api, siteId, settings),
    onSuccess: (reply) => {
      queryClient.setQueryData(queryKeys.nodes.maintenanceSettings(siteId), reply.data);
      void queryClient.invalidateQueries({ queryKey: queryKeys.nodes.bySite(siteId) });
    },
  });
}
