import type { BulkKind } from '../domain/bulkKinds';
import type { AttendanceQuery as AttendanceParams } from '../domain/schemas/attendance';
import type { ActivityListQuery } from '../domain/schemas/productivity';
import type { ListUsersQuery } from '../domain/schemas/users';
import type {
  AllWorkersParams,
  HeatmapParams,
  HistoryParams,
  InventoryScope,
  NameListKind,
  WorkerListParams,
} from './queryParams';
import type { IncidentQuery } from './safety/safetyPaths';

/**
 * Every react-query key of the console, in one place, so invalidation and the logout reset
 * never miss one. Keys are arrays whose first element is their area, and no two areas share a
 * first element (tests/unit/queryKeys.test.ts); add new areas below.
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
    meta: (scope: InventoryScope, id: number) => ['inventory', 'meta', scope, id] as const,
  },
  live: {
    /** The public live-channel settings (the safety listener's port, the MQTT topic root). */
    settings: () => ['live', 'settings'] as const,
  },
  workers: {
    all: ['workers'] as const,
    lists: (siteId: number) => ['workers', 'list', siteId] as const,
    list: (siteId: number, params: WorkerListParams) => ['workers', 'list', siteId, params] as const,
    /** Every page of a list at once (the analytics screens' names and a crew's members). */
    every: (siteId: number, params: AllWorkersParams) => ['workers', 'every', siteId, params] as const,
    detail: (siteId: number, workerId: number) => ['workers', 'detail', siteId, workerId] as const,
    unassignedHelmets: (siteId: number) => ['workers', 'unassignedHelmets', siteId] as const,
    /** `version` (the worker's updated_at) changes after an upload. */
    picture: (url: string, version: string) => ['workers', 'picture', url, version] as const,
  },
  /** Name lists, work shifts and assignments; the crews' managers sit under the crews list's key, so a rename refreshes them too. */
  workforce: {
    all: ['workforce'] as const,
    nameList: (siteId: number, kind: NameListKind) => ['workforce', kind, siteId] as const,
    workshifts: (siteId: number) => ['workforce', 'workshifts', siteId] as const,
    latest: (siteId: number) => ['workforce', 'latest', siteId] as const,
    crewsWithManagers: (siteId: number) => ['workforce', 'crews', siteId, 'managers'] as const,
    crewManagerUsers: (siteId: number) => ['workforce', 'crewManagerUsers', siteId] as const,
    workerOptions: (siteId: number, search: string) =>
      ['workforce', 'workerOptions', siteId, search] as const,
  },
  deviceTokens: {
    all: ['deviceTokens'] as const,
    bySite: (siteId: number) => ['deviceTokens', 'bySite', siteId] as const,
  },
  safety: {
    all: ['safety'] as const,
    incidents: (query: IncidentQuery) => ['safety', 'incidents', query] as const,
    /** Every incident list, whatever its window: what a new incident or an escalation refreshes. */
    allIncidents: ['safety', 'incidents'] as const,
    evacuations: (siteId: number) => ['safety', 'evacuations', siteId] as const,
    /** The site's past drills' figures, refreshed with its list of evacuations. */
    drillComparison: (siteId: number) => ['safety', 'evacuations', siteId, 'figures'] as const,
    report: (sessionId: string) => ['safety', 'report', sessionId] as const,
    demo: (siteId: number) => ['safety', 'demo', siteId] as const,
    networks: (siteId: number) => ['safety', 'networks', siteId] as const,
    workers: (networkId: number, floorId: number) => ['safety', 'workers', networkId, floorId] as const,
    settings: (siteId: number) => ['safety', 'settings', siteId] as const,
  },
  /** Analytics gateway queries (Cube `load`), keyed by the query itself. */
  gateway: {
    all: ['gateway'] as const,
    /** `query` is a GatewayQuery (src/api/gateway.ts, which imports this file). */
    load: (query: object) => ['gateway', 'load', query] as const,
  },
  /** The daily attendance report (GET /sites/{id}/attendance/daily). */
  attendance: {
    all: ['attendance'] as const,
    daily: (siteId: number, params: AttendanceParams) => ['attendance', 'daily', siteId, params] as const,
  },
  /** The analytics fast paths of the main API (heatmap, history chunks of playback and spaghetti). */
  analytics: {
    all: ['analytics'] as const,
    heatmap: (floorId: number, params: HeatmapParams) => ['analytics', 'heatmap', floorId, params] as const,
    history: (floorId: number, params: HistoryParams) => ['analytics', 'history', floorId, params] as const,
  },
  /** Anchors and sinks: a site's list (polled), one node's history over its last hours, the site's maintenance settings. */
  nodes: {
    all: ['nodes'] as const,
    bySite: (siteId: number) => ['nodes', 'bySite', siteId] as const,
    history: (siteId: number, nodeId: string, hours: number) =>
      ['nodes', 'history', siteId, nodeId, hours] as const,
    maintenanceSettings: (siteId: number) => ['nodes', 'maintenanceSettings', siteId] as const,
  },
  /** Electrical RM installation: a site's rooms with their devices and checklists (polled), and the unassigned networks. */
  electricalRooms: {
    all: ['electricalRooms'] as const,
    bySite: (siteId: number) => ['electricalRooms', 'bySite', siteId] as const,
    unassignedNetworks: () => ['electricalRooms', 'unassignedNetworks'] as const,
  },
  /** The maintenance map: a floor's nodes as they are now (polled); replays stream their own windows. */
  nodeMap: {
    all: ['nodeMap'] as const,
    floor: (floorId: number) => ['nodeMap', 'floor', floorId] as const,
  },
  /** Installation mode: a floor's walls and planning anchors, the coverage answers, the anchors awaiting approval. */
  installation: {
    all: ['installation'] as const,
    /** Everything of one floor's plan (walls, planning anchors, simulations, measured links). */
    floor: (floorId: number) => ['installation', 'floor', floorId] as const,
    walls: (floorId: number) => ['installation', 'floor', floorId, 'walls'] as const,
    planningAnchors: (floorId: number) => ['installation', 'floor', floorId, 'planningAnchors'] as const,
    measured: (floorId: number) => ['installation', 'floor', floorId, 'measured'] as const,
    /** A site's anchors awaiting approval, on one floor. */
    unapproved: (siteId: number, floorId: number) => ['installation', 'unapproved', siteId, floorId] as const,
    radioSettings: (siteId: number) => ['installation', 'radioSettings', siteId] as const,
  },
  /** Work permits of a floor and who may hold one on a site. */
  workPermits: {
    all: ['workPermits'] as const,
    byFloor: (floorId: number) => ['workPermits', 'byFloor', floorId] as const,
    holders: (siteId: number) => ['workPermits', 'holders', siteId] as const,
  },
  /** Excel uploads of the bulk sub-API: each kind's history, and a draft's rows page by page. */
  bulkUploads: {
    all: ['bulkUploads'] as const,
    historyOfKind: (siteId: number, kind: BulkKind) => ['bulkUploads', 'history', siteId, kind] as const,
    history: (siteId: number, kind: BulkKind, page: number) =>
      ['bulkUploads', 'history', siteId, kind, page] as const,
    upload: (siteId: number, uploadId: string) => ['bulkUploads', 'upload', siteId, uploadId] as const,
    rows: (siteId: number, uploadId: string, page: number, errorsOnly: boolean) =>
      ['bulkUploads', 'upload', siteId, uploadId, 'rows', page, errorsOnly] as const,
  },
  /** A site's Power BI report links (Analytics → Reports). */
  powerBi: {
    all: ['powerBi'] as const,
    bySite: (siteId: number) => ['powerBi', 'bySite', siteId] as const,
  },
  /** eTQR: a site's activities (lists and single ones, refreshed together after a change) and its code lists. */
  productivity: {
    all: ['productivity'] as const,
    activities: (siteId: number) => ['productivity', 'activities', siteId] as const,
    list: (siteId: number, params: ActivityListQuery) =>
      ['productivity', 'activities', siteId, 'list', params] as const,
    activity: (siteId: number, activityId: number) =>
      ['productivity', 'activities', siteId, 'one', activityId] as const,
    delayCodes: (siteId: number) => ['productivity', 'delayCodes', siteId] as const,
    activityCodes: (siteId: number) => ['productivity', 'activityCodes', siteId] as const,
  },
  /** User management: a client's users page by page, and one user's sites (its clients are `clients`). */
  users: {
    all: ['users'] as const,
    list: (params: ListUsersQuery) => ['users', 'list', params] as const,
    sites: (userId: number) => ['users', 'sites', userId] as const,
  },
} as const;
