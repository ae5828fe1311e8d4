import { queryOptions } from '@tanstack/react-query';
import { Type } from 'typebox';
import {
  type ApproveAnchorBody,
  InstallationIdBodySchema,
  MeasuredLinkSchema,
  type PlanningAnchorAddBody,
  type PlanningAnchorEditBody,
  PlanningAnchorSchema,
  RadioSettingsSchema,
  type SimulateBody,
  SimulationSchema,
  type SuggestBody,
  SuggestionSchema,
  UnapprovedAnchorSchema,
} from '../domain/schemas/installation';
import { InventoryItemSchema } from '../domain/schemas/inventory';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';

/**
 * Installation mode's planning anchors, coverage and anchor approval (issue 19; the walls have
 * their own file, installationWalls.ts): POST /api/installation/anchor/{getAll,add,edit,delete,
 * simulate,suggest,approve,unapprove}, POST /api/installation/node/measured, GET
 * /api/sites/{id}/anchors/unapproved and GET /api/sites/{id}/radio-settings.
 */

export type {
  MeasuredLink,
  PlanningAnchor,
  RadioSettings,
  Simulation,
  Suggestion,
  UnapprovedAnchor,
} from '../domain/schemas/installation';

/** How often the approval tab asks for the unapproved anchors again: their diagnostics arrive every 10–60 s. */
export const UNAPPROVED_POLL_MS = 10_000;

const PlanningAnchorListSchema = Type.Array(PlanningAnchorSchema);

export function fetchPlanningAnchors(api: ApiClient, floorId: number, signal?: AbortSignal) {
  return api.post('/installation/anchor/getAll', { floor_id: floorId }, PlanningAnchorListSchema, { signal });
}

export function addPlanningAnchor(api: ApiClient, body: PlanningAnchorAddBody) {
  return api.post('/installation/anchor/add', body, PlanningAnchorSchema);
}

export function editPlanningAnchor(api: ApiClient, body: PlanningAnchorEditBody) {
  return api.post('/installation/anchor/edit', body, PlanningAnchorSchema);
}

export function deletePlanningAnchor(api: ApiClient, id: number) {
  return api.post('/installation/anchor/delete', { id }, InstallationIdBodySchema);
}

export function simulateCoverage(api: ApiClient, body: SimulateBody, signal?: AbortSignal) {
  return api.post('/installation/anchor/simulate', body, SimulationSchema, { signal });
}

export function suggestAnchors(api: ApiClient, body: SuggestBody, signal?: AbortSignal) {
  return api.post('/installation/anchor/suggest', body, Type.Array(SuggestionSchema), { signal });
}

export function fetchMeasuredLinks(api: ApiClient, floorId: number, signal?: AbortSignal) {
  return api.post('/installation/node/measured', { floor_id: floorId }, Type.Array(MeasuredLinkSchema), {
    signal,
  });
}

export async function fetchUnapprovedAnchors(
  api: ApiClient,
  siteId: number,
  floorId: number,
  signal?: AbortSignal,
) {
  const { data } = await api.list(`/sites/${siteId}/anchors/unapproved`, UnapprovedAnchorSchema, {
    query: { floor_id: floorId },
    signal,
  });
  return data;
}

export function fetchRadioSettings(api: ApiClient, siteId: number, signal?: AbortSignal) {
  return api.get(`/sites/${siteId}/radio-settings`, RadioSettingsSchema, { signal });
}

export function approveAnchor(api: ApiClient, body: ApproveAnchorBody, signal?: AbortSignal) {
  return api.post('/installation/anchor/approve', body, InventoryItemSchema, { signal });
}

export function unapproveAnchor(api: ApiClient, inventoryId: number) {
  return api.post('/installation/anchor/unapprove', { inventory_id: inventoryId }, InventoryItemSchema);
}

// Query options: each owns its key.

export function planningAnchorsQuery(api: ApiClient, floorId: number) {
  return queryOptions({
    queryKey: queryKeys.installation.planningAnchors(floorId),
    queryFn: ({ signal }) => fetchPlanningAnchors(api, floorId, signal),
  });
}

export function measuredLinksQuery(api: ApiClient, floorId: number) {
  return queryOptions({
    queryKey: queryKeys.installation.measured(floorId),
    queryFn: ({ signal }) => fetchMeasuredLinks(api, floorId, signal),
  });
}

export function unapprovedAnchorsQuery(api: ApiClient, siteId: number, floorId: number) {
  return queryOptions({
    queryKey: queryKeys.installation.unapproved(siteId, floorId),
    queryFn: ({ signal }) => fetchUnapprovedAnchors(api, siteId, floorId, signal),
    refetchInterval: UNAPPROVED_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

export function radioSettingsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.installation.radioSettings(siteId),
    queryFn: ({ signal }) => fetchRadioSettings(api, siteId, signal),
  });
}
