import type { WorkerSortField, WorkerStatus } from '../domain/workers';

/**
 * The parameters that query keys are made of (queryKeys.ts), beside no fetcher so that the keys
 * module and the endpoint areas that import it never import each other.
 */

/** Where inventory counts are asked for (spec §7 inventory-meta). */
export type InventoryScope = 'sites' | 'buildings' | 'floors';

/** The name lists of a site (spec §7): each is GET (sorted name,asc), POST create and POST /{id} edit. */
export type NameListKind = 'worker-roles' | 'subcontractors' | 'crews';

export interface WorkerFilters {
  search?: string;
  roleId?: number | null;
  subcontractorId?: number | null;
  crewId?: number | null;
  workshiftId?: number | null;
  status?: WorkerStatus | null;
}

export interface WorkerListParams extends WorkerFilters {
  page: number;
  perPage: number;
  sort: { field: WorkerSortField; direction: 'asc' | 'desc' };
}

/** Every page of a filtered, sorted worker list at once (fetchAllWorkers: the export, the analytics' names). */
export type AllWorkersParams = Omit<WorkerListParams, 'page' | 'perPage'>;

/** A floor's heatmap window and filters (GET /floors/{id}/heatmap); times are ISO texts. */
export interface HeatmapParams {
  from: string;
  to: string;
  crewId?: number | null;
  subcontractorId?: number | null;
  workerRoleId?: number | null;
}

/** One history chunk of a floor (GET /floors/{id}/history); `cursor` is the previous chunk's. */
export interface HistoryParams {
  from: string;
  to: string;
  workerIds?: readonly number[] | null;
  cursor?: string | null;
}
