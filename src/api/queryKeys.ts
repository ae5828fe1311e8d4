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
    detail: (buildingId: number, floorId: number) => ['floors', 'detail', buildingId, floorId] as const,
    /** `version` (the floor's updated_at) changes when a new image is uploaded. */
    blueprint: (floorId: number, version: string) => ['floors', 'blueprint', floorId, version] as const,
  },
  zones: {
    all: ['zones'] as const,
    byFloor: (floorId: number) => ['zones', 'byFloor', floorId] as const,
  },
} as const;
