import { randomUUID } from 'node:crypto';
import { BULK_KIND_DEFINITIONS, bulkListPath } from '../../../../src/domain/bulkKinds';
import { DEVICE_TOKEN_MANAGER_AREAS } from '../../../../src/domain/deviceTokenAccess';
import { DEFAULT_ROLE_PERMISSIONS, ROLES } from '../../../../src/domain/roles';
import type { GuardedRoute, RouteKey, RouteRule } from './rules';
import { MATRIX_ZONE_RING, SCOPES } from './siteObjects';

/** Shorthands for the table: a guarded route of `areas` at `capability` on `object`. */
const open = (
  areas: GuardedRoute['areas'],
  object: GuardedRoute['object'],
  more: Partial<GuardedRoute> = {},
): GuardedRoute => ({ kind: 'guarded', areas, capability: 'open', object, ...more });
const write = (
  areas: GuardedRoute['areas'],
  object: GuardedRoute['object'],
  more: Partial<GuardedRoute> = {},
): GuardedRoute => ({ kind: 'guarded', areas, capability: 'write', object, ...more });
const named = (label: string) => (_o: unknown, n: number) => ({ name: `Matrix ${label} ${n}` });

/** The floor plans are the maps' and also what the evacuation and installation screens draw (allowFloorPlanReaders). */
const FLOOR_PLAN = ['maps', 'evacuation', 'installation'] as const;
/** Device tokens are managed by writers of sites or of installation, reading their list included. */
const DEVICE_TOKENS = DEVICE_TOKEN_MANAGER_AREAS;
const CLIENT_SCOPES = ['own', 'other-client'] as const;
const HELMET_PICKERS = { area: 'workers', capability: 'write' } as const;
/** The anchors and sinks are read by the nodes, installation and maintenance areas (DESIGN §4: one row). */
const NODE_READERS = ['nodes', 'installation', 'maintenance'] as const;
const lastHour = () => ({
  from: new Date(Date.now() - 3_600_000).toISOString(),
  to: new Date().toISOString(),
});

/**
 * Every route of the main listener (PORT), keyed as registered. Renaming calls send the object's
 * own name, so the names the leak check looks for stay on their objects. HEAD routes answer as their GET.
 * A route missing here fails the suite.
 */
export const API_ROUTES: Record<RouteKey, RouteRule> = {
  'POST /api/login': { kind: 'public', why: 'signing in' },
  'POST /api/sites/:id/login': { kind: 'public', why: 'signing in to a site' },
  'POST /api/forgot-password': { kind: 'public', why: 'asking for a reset link' },
  'POST /api/reset-password/:token': { kind: 'public', why: 'the reset link is the credential' },
  'POST /api/register/:token': { kind: 'public', why: 'the invitation link is the credential' },
  'GET /api/live-settings': { kind: 'public', why: 'the console finds the live channel before signing in' },
  'POST /api/ingest/:siteId/positions': { kind: 'public', why: 'gateways present a device token' },
  'GET /livez': { kind: 'public', why: 'the orchestrator checks the process is alive' },
  'GET /readyz': { kind: 'public', why: 'the load balancer checks the process can serve' },
  'GET /metrics': { kind: 'public', why: 'Prometheus scrapes it: METRICS_TOKEN, or this machine only' },
  'GET /api/openapi.json': {
    kind: 'public',
    why: 'the route list and input schemas the console already shows',
  },
  // The reference page (@fastify/swagger-ui) that browses that document.
  'GET /api/docs': { kind: 'public', why: 'the reference page of the OpenAPI document' },
  'GET /api/docs/json': { kind: 'public', why: 'the OpenAPI document, as the reference page reads it' },
  'GET /api/docs/yaml': { kind: 'public', why: 'the OpenAPI document in YAML' },
  'GET /api/docs/static/index.html': { kind: 'public', why: "the reference page's redirect to itself" },
  'GET /api/docs/static/swagger-initializer.js': { kind: 'public', why: "the reference page's script" },
  'GET /api/docs/static/*': { kind: 'public', why: "the reference page's files" },

  // Everyone signed in: their own session and user, and the clients and sites they see.
  'GET /api/logout': open([], null, { ownSession: true }),
  'GET /api/user': open([], null),
  'POST /api/users/preferences': write([], null, { body: () => ({ locale: 'en' }) }),
  'POST /api/users/recently-visited': write([], 'site', {
    body: (o) => ({ client_id: o.clientId, site_id: o.siteId }),
  }),
  'GET /api/clients': open([], null),
  'GET /api/clients/:clientId/sites': open([], 'client', { scopes: CLIENT_SCOPES }),

  // User management.
  'POST /api/invite': write(['users'], 'site', {
    body: (o, n) => ({
      name: `Matrix invitee ${n}`,
      email: `matrix-invitee-${n}@matrix.test`,
      user_role: 'group-of-sites-viewer',
      client_id: o.clientId,
      site_ids: [o.siteId],
    }),
  }),
  'GET /api/users': open(['users'], null),
  // Everyone reads its own clients and sites (the header's pickers).
  'GET /api/users/:id/clients': open(['users'], 'user', { selfAllowed: true }),
  'GET /api/users/:id/sites': open(['users'], 'user', { selfAllowed: true }),
  'POST /api/users/:id': write(['users'], 'user', { body: (o) => ({ name: o.labels.user }) }),
  'POST /api/users/:id/activate': write(['users'], 'user'),
  'POST /api/users/:id/deactivate': write(['users'], 'user', { fresh: 'user' }),
  'POST /api/users/:id/reinvite': write(['users'], 'user'),
  'POST /api/users/:id/reset-password': write(['users'], 'user', {
    body: () => ({ password: 'matrix-password-1' }),
  }),

  // Clients, sites, buildings, networks.
  'POST /api/clients': write([], null, {
    refusedFirst: ROLES.filter((role) => !DEFAULT_ROLE_PERMISSIONS[role].includes('clients:create')),
    body: named('client'),
  }),
  'POST /api/sites': write(['sites'], 'client', {
    scopes: CLIENT_SCOPES,
    body: (o, n) => ({ client_id: o.clientId, name: `Matrix site ${n}`, timezone: 'UTC' }),
  }),
  'GET /api/sites/:id/buildings': open(['buildings'], 'site'),
  'POST /api/sites/:id/buildings': write(['buildings'], 'site', { body: named('building') }),
  'GET /api/networks/unassigned': open(['networks'], null),
  // Moves a fresh network to the site it is on, or (foreign body) to another client's site, which
  // only a super-admin sees.
  'PATCH /api/networks/:id': write(['networks'], 'network', {
    body: (o) => ({ site_id: o.siteId }),
    fresh: 'network',
    foreignBody: 'reach',
  }),

  // Floors and zones.
  'GET /api/buildings/:id/floors': open(FLOOR_PLAN, 'building'),
  'GET /api/sites/:id/floors': open(FLOOR_PLAN, 'site'),
  'POST /api/buildings/:id/floors': write(['maps'], 'building', { multipart: true }),
  'GET /api/buildings/:id/floors/:floorId': open(FLOOR_PLAN, 'floor'),
  'POST /api/buildings/:id/floors/:floorId': write(['maps'], 'floor', { multipart: true }),
  'DELETE /api/buildings/:id/floors/:floorId': write(['maps'], 'floor', { fresh: 'floor' }),
  'POST /api/buildings/:id/floors/:floorId/duplicate': write(['maps'], 'floor'),
  'GET /api/buildings/:id/floors/:floorId/blueprint': open(FLOOR_PLAN, 'floor', {
    allowedAnswers: [{ status: 404, message: 'Blueprint not found' }],
  }),
  'GET /api/floors/:id/zones': open(FLOOR_PLAN, 'floor'),
  'GET /api/sites/:id/zones': open(FLOOR_PLAN, 'site'),
  'POST /api/floors/:id/zones': write(['maps'], 'floor', {
    body: (_o, n) => ({ name: `Matrix zone ${n}`, kind: 'work', coordinates: MATRIX_ZONE_RING }),
  }),
  'POST /api/floors/:id/zones/:zoneId': write(['maps'], 'zone', { body: (o) => ({ name: o.labels.zone }) }),
  'DELETE /api/floors/:id/zones/:zoneId': write(['maps'], 'zone', { fresh: 'zone' }),

  // Devices and what the maps count.
  'GET /api/floors/:id/inventory-meta': open(['maps'], 'floor'),
  'GET /api/buildings/:id/inventory-meta': open(['maps'], 'building'),
  'GET /api/sites/:id/inventory-meta': open(['maps'], 'site'),
  'GET /api/floors/:id/inventory-statistics': open(['maps'], 'floor'),
  'GET /api/floors/:id/anchor-statistics': open(['maps'], 'floor'),
  // The live map of the home screen: everyone who sees the site.
  'GET /api/floors/:id/inventory': open(['sites'], 'floor'),
  'GET /api/floors/:id/inventory/:inventoryId': open(['sites'], 'inventory', {
    query: () => ({ timestamp: new Date().toISOString() }),
  }),
  'POST /api/floors/:id/inventory/:inventoryId': write(['installation'], 'inventory', {
    body: () => ({ lat: 25.1995, long: 55.3005 }),
  }),
  'GET /api/floors/:id/workers': open(['sites'], 'floor'),
  // Device lists are the nodes screens' (a known bug let every role read them).
  'GET /api/networks/:id/inventory': open(['nodes'], 'network'),
  'GET /api/sites/:id/inventories': open(['nodes'], 'site'),
  'POST /api/sites/:id/inventories': write(['nodes'], 'site', {
    body: (_o, n) => ({ items: [{ wnt_inventory_id: `MX-REG-${n}`, type: 'anchor' }] }),
  }),
  // The helmets to hand out in a worker's drawer, of a site or of one network: device lists,
  // so the nodes area's, and also whoever may assign helmets to workers.
  'GET /api/sites/:id/inventories/assets': open(['nodes'], 'site', { alsoAllowedBy: HELMET_PICKERS }),
  'GET /api/networks/:id/inventory/assets': open(['nodes'], 'network', { alsoAllowedBy: HELMET_PICKERS }),
  'GET /api/sites/:id/device-tokens': write(DEVICE_TOKENS, 'site'),
  'POST /api/sites/:id/device-tokens': write(DEVICE_TOKENS, 'site', {
    body: (_o, n) => ({ label: `Matrix gateway ${n}` }),
  }),
  'POST /api/sites/:id/device-tokens/:tokenId/revoke': write(DEVICE_TOKENS, 'deviceToken', {
    fresh: 'deviceToken',
  }),

  // The site's name lists.
  'GET /api/sites/:id/worker-roles': open(['workerRoles'], 'site'),
  'POST /api/sites/:id/worker-roles': write(['workerRoles'], 'site', { body: named('role') }),
  'POST /api/sites/:id/worker-roles/:itemId': write(['workerRoles'], 'workerRole', {
    body: (o) => ({ name: o.labels.workerRole }),
  }),
  'GET /api/sites/:id/subcontractors': open(['subcontractors'], 'site'),
  'POST /api/sites/:id/subcontractors': write(['subcontractors'], 'site', { body: named('sub') }),
  'POST /api/sites/:id/subcontractors/:itemId': write(['subcontractors'], 'subcontractor', {
    body: (o) => ({ name: o.labels.subcontractor }),
  }),

  // Workers: a crew manager reaches the current members of its crews only, and creates none.
  'GET /api/sites/:id/workers': open(['workers'], 'site'),
  'GET /api/sites/:id/workers/statistics': open(['workers'], 'site'),
  'GET /api/sites/:id/workers/workshift-and-crews/latest': open(['workers'], 'site'),
  'POST /api/sites/:id/workers': write(['workers'], 'site', {
    refusedInReach: ['crew-manager'],
    body: (_o, n) => ({ name: `Matrix worker ${n}`, worker_tag_id: `MXW-${n}` }),
  }),
  'GET /api/sites/:id/workers/:workerId': open(['workers'], 'worker'),
  'POST /api/sites/:id/workers/:workerId': write(['workers'], 'worker', {
    body: (o) => ({ name: o.labels.worker }),
  }),
  'DELETE /api/sites/:id/workers/:workerId': write(['workers'], 'worker', { fresh: 'worker' }),
  'POST /api/sites/:id/workers/:workerId/picture': write(['workers'], 'worker', { multipart: true }),
  // The maps and the evacuation screen show the wearer's picture too.
  'GET /api/sites/:id/workers/:workerId/picture': open(['workers', 'maps', 'evacuation'], 'worker', {
    allowedAnswers: [{ status: 404, message: 'Picture not found' }],
  }),
  'POST /api/sites/:id/workers/:workerId/inventories/assign/:helmetId': write(['workers'], 'worker', {
    fresh: 'worker',
  }),
  'POST /api/sites/:id/workers/:workerId/inventories/unassign': write(['workers'], 'worker', {
    fresh: 'worker',
  }),

  // Crews and work shifts.
  'GET /api/sites/:id/crews': open(['crews'], 'site'),
  'POST /api/sites/:id/crews': write(['crews'], 'site', { body: named('crew') }),
  'POST /api/sites/:id/crews/:crewId': write(['crews'], 'crew', { body: (o) => ({ name: o.labels.crew }) }),
  'POST /api/sites/:id/crews/:crewId/managers': write(['crews'], 'crew', {
    refusedFirst: ['crew-manager'],
    fresh: 'crew',
    body: () => ({ userIds: [] }),
  }),
  // The managers picker: those who name a crew's managers, crew managers refused.
  'GET /api/sites/:id/crew-manager-users': write(['crews'], 'site', { refusedFirst: ['crew-manager'] }),
  'POST /api/sites/:id/workers/crews/:crewId/assign': write(['crews'], 'crew', {
    body: (o) => ({ workerIds: [o.workerId], assigned_at: '2021-01-01' }),
    foreignBody: 'sameSite',
  }),
  'GET /api/sites/:id/workshifts': open(['workshifts'], 'site'),
  'POST /api/sites/:id/workshifts': write(['workshifts'], 'site', {
    body: (_o, n) => ({ name: `Matrix shift ${n}`, start: '08:00', end: '17:00' }),
  }),
  'POST /api/sites/:id/workshifts/:workshiftId': write(['workshifts'], 'workshift', {
    body: (o) => ({ name: o.labels.workshift }),
  }),
  'POST /api/sites/:id/workers/workshifts/:workshiftId/assign': write(['workshifts'], 'workshift', {
    body: (o) => ({ workerIds: [o.workerId], assigned_at: '2021-01-01' }),
    foreignBody: 'sameSite',
  }),

  // The groups (filled by uploads) and the workers' location assignments and status spells.
  'GET /api/sites/:id/location-groups': open(['crews'], 'site'),
  'GET /api/sites/:id/location-groups/assignments': open(['workers'], 'site'),
  'GET /api/sites/:id/crew-groups': open(['crews'], 'site'),
  'GET /api/sites/:id/subcontractors-groups': open(['crews'], 'site'),
  'GET /api/sites/:id/worker-role-groups': open(['crews'], 'site'),
  'GET /api/sites/:id/worker-status': open(['workers'], 'site'),
  'POST /api/sites/:id/worker-status': write(['configuration'], 'site', { body: named('status') }),
  'GET /api/sites/:id/workers/worker-status/assignments': open(['workers'], 'site'),

  // The daily attendance report: readers of attendance; a crew manager sees its crews' workers.
  'GET /api/sites/:id/attendance/daily': open(['attendance'], 'site', {
    query: () => ({ from: '2026-03-10', to: '2026-03-10' }),
  }),
  'GET /api/sites/:id/attendance/daily/export': open(['attendance'], 'site', {
    query: () => ({ from: '2026-03-10', to: '2026-03-10' }),
  }),

  // The analytics fast paths: a floor of another site or client is a 404.
  'GET /api/floors/:id/heatmap': open(['analytics'], 'floor', {
    query: () => ({ from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date().toISOString() }),
  }),
  'GET /api/floors/:id/history': open(['analytics'], 'floor', {
    query: () => ({ from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date().toISOString() }),
  }),

  // Anchors and sinks: a node of another site, floor or client is as unknown as any node id.
  'GET /api/floors/:id/node-information': open(NODE_READERS, 'floor', {
    query: () => ({ timestamp: new Date().toISOString() }),
  }),
  'GET /api/sites/:id/nodes': open(NODE_READERS, 'site'),
  'GET /api/sites/:id/nodes/:nodeId/history': open(NODE_READERS, 'site', {
    params: (o) => ({ nodeId: o.anchorTag }),
    query: lastHour,
  }),
  // `type` names no object: the three columns only.
  'GET /api/installation/:floorId/assets/list/:type': open(NODE_READERS, 'floor', {
    params: () => ({ type: 'all' }),
    scopes: SCOPES,
  }),
  'GET /api/installation/:floorId/assets/list/playback/:from/:to': open(NODE_READERS, 'floor', {
    params: lastHour,
  }),
  'GET /api/installation/:floorId/assets/item/:nodeId/:type': open(NODE_READERS, 'floor', {
    params: (o) => ({ nodeId: o.anchorTag, type: 'anchor' }),
  }),
  // The site's anchor-moved threshold: the maintenance area's setting.
  'GET /api/sites/:id/maintenance-settings': open(['maintenance'], 'site'),
  'PUT /api/sites/:id/maintenance-settings': write(['maintenance'], 'site', {
    body: () => ({ anchorMovedThresholdMetres: 0.3 }),
  }),

  // Installation planning and anchor approval (issue 19): bodies name the floor, wall, planning
  // anchor or anchor, each found only through a site the caller sees.
  'POST /api/installation/wall/getAll': open(['installation'], 'floor', {
    body: (o) => ({ floor_id: o.floorId }),
  }),
  'POST /api/installation/wall/add': write(['installation'], 'floor', {
    body: (o, n) => ({
      floor_id: o.floorId,
      name: `Matrix wall new ${n}`,
      material: 'glass',
      points: MATRIX_ZONE_RING.slice(1, 3),
    }),
  }),
  'POST /api/installation/wall/edit': write(['installation'], 'wall', {
    body: (o) => ({ id: o.wallId, material: 'concrete' }),
  }),
  'POST /api/installation/wall/delete': write(['installation'], 'wall', {
    body: (o) => ({ id: o.wallId }),
    fresh: 'wall',
  }),
  'POST /api/installation/anchor/getAll': open(['installation'], 'floor', {
    body: (o) => ({ floor_id: o.floorId }),
  }),
  'POST /api/installation/anchor/add': write(['installation'], 'floor', {
    body: (o, n) => ({
      floor_id: o.floorId,
      anchor_id: `Matrix P new ${n}`,
      metadata: { lat: 25.1996, long: 55.3004 },
    }),
  }),
  'POST /api/installation/anchor/edit': write(['installation'], 'planningAnchor', {
    body: (o) => ({ id: o.planningAnchorId, metadata: { lat: 25.1994, long: 55.3006 } }),
  }),
  'POST /api/installation/anchor/delete': write(['installation'], 'planningAnchor', {
    body: (o) => ({ id: o.planningAnchorId }),
    fresh: 'planningAnchor',
  }),
  'POST /api/installation/anchor/simulate': open(['installation'], 'floor', {
    body: (o) => ({ floor_id: o.floorId, cell_size_m: 5 }),
  }),
  'POST /api/installation/anchor/suggest': open(['installation'], 'floor', {
    body: (o) => ({ floor_id: o.floorId, count: 1, cell_size_m: 10 }),
  }),
  'POST /api/installation/node/measured': open(['installation'], 'floor', {
    body: (o) => ({ floor_id: o.floorId }),
  }),
  'GET /api/sites/:id/radio-settings': open(['installation'], 'site'),
  'PUT /api/sites/:id/radio-settings': write(['installation'], 'site', {
    body: () => ({ approval: { tolerance_m: 0.5, min_link_quality: 50 } }),
  }),
  'GET /api/sites/:id/anchors/unapproved': open(['installation'], 'site'),
  // The matrix anchor never reported: approved only with a reason (else 422, still allowed).
  'POST /api/installation/anchor/approve': write(['installation'], 'inventory', {
    body: (o) => ({
      inventory_id: o.anchorId,
      floor_id: o.floorId,
      lat: 25.1995,
      long: 55.3005,
      override_reason: 'Matrix check',
    }),
  }),
  'POST /api/installation/anchor/unapprove': write(['installation'], 'inventory', {
    body: (o) => ({ inventory_id: o.anchorId }),
  }),

  // Electrical RM installation: a room, its devices and its checklist (the electricalRm area).
  'GET /api/sites/:id/electrical-rooms': open(['electricalRm'], 'site'),
  'POST /api/buildings/:id/electrical-rooms': write(['electricalRm'], 'building', {
    body: named('electrical room'),
  }),
  'POST /api/electrical-rooms/:id': write(['electricalRm'], 'electricalRoom', {
    body: (o) => ({ name: o.labels.electricalRoom }),
  }),
  'DELETE /api/electrical-rooms/:id': write(['electricalRm'], 'electricalRoom', { fresh: 'electricalRoom' }),
  // The site's network goes into the room once; later calls are told it is already installed (409).
  'POST /api/electrical-rooms/:id/devices': write(['electricalRm'], 'electricalRoom', {
    body: (o) => ({ network_id: o.networkId }),
    foreignBody: 'sameSite',
  }),
  'DELETE /api/electrical-rooms/:id/devices/:deviceId': write(['electricalRm'], 'electricalRoom', {
    fresh: 'electricalRoomDevice',
  }),
  // `step` names no object: the three columns only.
  'PUT /api/electrical-rooms/:id/steps/:step': write(['electricalRm'], 'electricalRoom', {
    params: () => ({ step: 'ups' }),
    body: () => ({ done: true }),
    scopes: SCOPES,
  }),

  // Work permits of a floor: the client/site/floor chain must hold; the holder crew must be the site's.
  'GET /api/clients/:clientId/sites/:siteId/floors/:floorId/work-permits': open(['installation'], 'floor'),
  'GET /api/clients/:clientId/sites/:siteId/work-permit-holders': open(['installation'], 'site'),
  'POST /api/clients/:clientId/sites/:siteId/floors/:floorId/work-permits': write(['installation'], 'floor', {
    body: (o, n) => ({
      number: `MX-PTW-new-${n}`,
      type: 'hotWork',
      area: MATRIX_ZONE_RING,
      holder_crew_id: o.crewId,
      valid_from: new Date(Date.now() - 3_600_000).toISOString(),
      valid_to: new Date(Date.now() + 3_600_000).toISOString(),
    }),
    foreignBody: 'sameSite',
  }),
  // The seeded permit is a draft: making it active, then active again, is allowed.
  'POST /api/clients/:clientId/sites/:siteId/floors/:floorId/work-permits/:permitId': write(
    ['installation'],
    'workPermit',
    { body: () => ({ status: 'active' }) },
  ),
  'DELETE /api/clients/:clientId/sites/:siteId/floors/:floorId/work-permits/:permitId': write(
    ['installation'],
    'workPermit',
    { fresh: 'workPermit' },
  ),
  // A floor's structural grid: the floor named in the body (a grid field of a hidden floor is 404).
  'POST /api/gridFields': write(['installation'], 'floor', {
    body: (o, n) => ({
      floor_id: o.floorId,
      name: `Matrix grid new ${n}`,
      axes: { columns: [{ label: 'A', offset_m: 0 }], rows: [{ label: '1', offset_m: 0 }] },
    }),
  }),
  'GET /api/gridFields/:id': open(['installation'], 'gridField'),

  // eTQR productivity: readers of productivity read, its writers book and approve; a crew manager
  // reaches its crews' activities only. A body naming an activity out of reach is a 404.
  'GET /api/sites/:id/activity': open(['productivity'], 'site', {
    query: () => ({ from: '2026-03-10', to: '2026-03-10' }),
  }),
  'POST /api/sites/:id/activity': write(['productivity'], 'site', {
    body: (o, n) => ({
      name: `Matrix activity new ${n}`,
      activity_code_id: o.activityCodeId,
      crew_id: o.crewId,
      day: '2026-03-10',
      planned_quantity: 1,
      planned_hours: 1,
    }),
    foreignBody: 'sameSite',
  }),
  'GET /api/sites/:id/activity/bulk': open(['productivity'], 'site', {
    query: (o) => ({ ids: String(o.activityId) }),
  }),
  'POST /api/sites/:id/activity/bulk': write(['productivity'], 'activity', {
    body: (o) => ({ changes: [{ id: o.activityId, version: 1, booked_hours: 1 }] }),
    foreignBody: 'sameSite',
  }),
  'POST /api/sites/:id/activity/approve/bulk': write(['productivity'], 'activity', {
    body: (o) => ({ activities: [{ id: o.activityId, version: 1 }] }),
    foreignBody: 'sameSite',
  }),
  'GET /api/sites/:id/activity/:activityId': open(['productivity'], 'activity'),
  'GET /api/sites/:id/delay-codes': open(['productivity'], 'site'),
  'GET /api/sites/:id/activity-code': open(['productivity'], 'site'),

  // Power BI report links of a site, listed under Analytics: its readers read, its writers change them.
  'GET /api/sites/:id/power-bi': open(['analytics'], 'site'),
  'POST /api/sites/:id/power-bi': write(['analytics'], 'site', {
    body: (_o, n) => ({
      name: `Matrix report new ${n}`,
      embed_url: 'https://app.powerbi.com/reportEmbed?reportId=matrix',
    }),
  }),
  'POST /api/sites/:id/power-bi/:reportId': write(['analytics'], 'powerBiReport', {
    body: () => ({ is_active: true }),
  }),

  // The analytics gateway (Cube's REST API): tenancy is a condition on every query, not a 404.
  'GET /cubejs-api/v1/meta': open(['analytics'], null),
  'GET /cubejs-api/v1/load': open(['analytics'], null, {
    query: (o) => ({ query: JSON.stringify(matrixGatewayQuery(o.floorId)) }),
  }),
  'POST /cubejs-api/v1/load': open(['analytics'], null, {
    body: (o) => ({ query: matrixGatewayQuery(o.floorId) }),
  }),

  ...bulkUploadRoutes(),
};

/**
 * The Excel uploads of every kind (src/domain/bulkKinds.ts), on the main API and the bulk sub-API:
 * admin roles only. An upload's id in its path is new, not an object, so only the site's three
 * columns are checked; the draft calls name the site's draft upload.
 */
function bulkUploadRoutes(): Record<RouteKey, RouteRule> {
  const routes: Record<RouteKey, RouteRule> = {};
  const newUpload = { multipart: true, scopes: SCOPES, params: () => ({ uploadId: randomUUID() }) } as const;
  for (const kind of BULK_KIND_DEFINITIONS) {
    routes[`GET /api/sites/:id/${kind.mainTemplatePath}`] = open(['bulkUploads'], 'site');
    if (kind.mainUploadPath)
      routes[`POST /api/sites/:id/${kind.mainUploadPath}`] = write(['bulkUploads'], 'site', {
        multipart: true,
      });
    routes[`POST /bulk/api/sites/:id/${kind.bulkPath}/:uploadId`] = write(['bulkUploads'], 'site', newUpload);
    routes[`GET /bulk/api/sites/:id/${bulkListPath(kind)}`] = open(['bulkUploads'], 'site');
    routes[`GET /bulk/api/sites/:id/${kind.bulkPath}/template`] = open(['bulkUploads'], 'site');
    if (kind.siteFreeTemplatePath)
      routes[`GET /bulk/api/${kind.siteFreeTemplatePath}`] = open(['bulkUploads'], null);
  }
  routes['GET /bulk/api/sites/:id/uploads'] = open(['bulkUploads'], 'site');
  routes['GET /bulk/api/sites/:id/uploads/:uploadId'] = open(['bulkUploads'], 'site');
  routes['GET /bulk/api/sites/:id/uploads/:uploadId/rejected'] = open(['bulkUploads'], 'site');
  routes['POST /bulk/api/sites/:id/uploads/:uploadId/commit'] = write(['bulkUploads'], 'site', {
    fresh: 'upload',
  });
  routes['POST /bulk/api/sites/:id/uploads/:uploadId/cancel'] = write(['bulkUploads'], 'site', {
    fresh: 'upload',
  });
  return routes;
}

/** A presence query naming the object's floor, for the gateway's rows of the table. */
function matrixGatewayQuery(floorId: number) {
  return {
    measures: ['Presence.workerSeconds'],
    filters: [{ member: 'Presence.floorId', operator: 'equals', values: [String(floorId)] }],
  };
}
