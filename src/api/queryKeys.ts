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
} as const;
