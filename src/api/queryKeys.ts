/**
 * Every react-query key of the console, in one place, so invalidation and the logout reset
 * never miss one. Keys are arrays that start with their area; add new areas below.
 */
export const queryKeys = {
  /** The signed-in user (GET /user). */
  user: {
    all: ['user'] as const,
    current: () => ['user', 'current'] as const,
  },
  auth: {
    all: ['auth'] as const,
  },
  clients: (userId: number) => ['clients', 'byUser', userId] as const,
  sites: (clientId: number) => ['sites', 'byClient', clientId] as const,
  buildings: (siteId: number) => ['buildings', 'bySite', siteId] as const,
  floors: {
    all: ['floors'] as const,
    byBuilding: (buildingId: number) => ['floors', 'byBuilding', buildingId] as const,
    /** Every floor of a site, with its online-active worker count (the dashboard). */
    bySite: (siteId: number) => ['floors', 'bySite', siteId] as const,
    detail: (buildingId: number, floorId: number) => ['floors', 'detail', buildingId, floorId] as const,
    /** `version` (the floor's updated_at) changes when a new image is uploaded. */
    blueprint: (floorId: number, version: string) => ['floors', 'blueprint', floorId, version] as const,
  },
  zones: {
    all: ['zones'] as const,
    byFloor: (floorId: number) => ['zones', 'byFloor', floorId] as const,
  },
  inventory: {
    all: ['inventory'] as const,
    /** Asset status counts of a site, building or floor. */
    meta: (scope: 'sites' | 'buildings' | 'floors', id: number) => ['inventory', 'meta', scope, id] as const,
  },
  live: {
    /** The public live-channel settings (the safety listener's port). */
    settings: () => ['live', 'settings'] as const,
  },
} as const;
