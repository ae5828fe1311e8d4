import { type SQL, sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

import type { NodeNeighbor } from '../../src/domain/schemas/nodes';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const clients = pgTable(
  'clients',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('clients_name_unique').on(sql`lower(${t.name})`)],
);

export const groupsOfSites = pgTable('groups_of_sites', {
  id: serial('id').primaryKey(),
  clientId: integer('client_id')
    .notNull()
    .references(() => clients.id),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const sites = pgTable(
  'sites',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    groupOfSitesId: integer('group_of_sites_id').references(() => groupsOfSites.id),
    name: text('name').notNull(),
    timezone: text('timezone').notNull().default('UTC'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sites_client_name_unique').on(t.clientId, sql`lower(${t.name})`)],
);

export const buildings = pgTable(
  'buildings',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('buildings_site_name_unique').on(t.siteId, sql`lower(${t.name})`)],
);

export const roles = pgTable('roles', {
  name: text('name').primaryKey(),
  label: text('label').notNull(),
});

export const permissions = pgTable('permissions', {
  name: text('name').primaryKey(),
});

export const rolePermissions = pgTable(
  'role_permissions',
  {
    role: text('role')
      .notNull()
      .references(() => roles.name),
    permission: text('permission')
      .notNull()
      .references(() => permissions.name),
  },
  (t) => [primaryKey({ columns: [t.role, t.permission] })],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id').references(() => clients.id),
    groupOfSitesId: integer('group_of_sites_id').references(() => groupsOfSites.id),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    role: text('role')
      .notNull()
      .references(() => roles.name),
    /** active | inactive | invited */
    status: text('status').notNull().default('invited'),
    locale: text('locale').notNull().default('en'),
    lastClientId: integer('last_client_id'),
    lastSiteId: integer('last_site_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    index('users_client_idx').on(t.clientId),
  ],
);

export const userSites = pgTable(
  'user_sites',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.siteId] }), index('user_sites_site_idx').on(t.siteId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('sessions_token_unique').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/** Single-use tokens e-mailed to a user: invitations and password resets. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** invitation | password-reset */
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('user_tokens_token_unique').on(t.tokenHash),
    index('user_tokens_user_idx').on(t.userId),
  ],
);

export const emailOutbox = pgTable('email_outbox', {
  id: serial('id').primaryKey(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  /** The link the e-mail carries, kept apart so tests and operators can follow it. */
  link: text('link'),
  createdAt: createdAt(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});

export const networks = pgTable('networks', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  siteId: integer('site_id').references(() => sites.id),
  createdAt: createdAt(),
});

const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** A storey of a building, georeferenced by its blueprint's corners a–d (DESIGN.md §5). */
export const floors = pgTable(
  'floors',
  {
    id: serial('id').primaryKey(),
    buildingId: integer('building_id')
      .notNull()
      .references(() => buildings.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    altitude: numeric('altitude', { mode: 'number' }).notNull(),
    category: text('category').notNull().default(''),
    /** File name under `${dataDir}/blueprints/`; null when no image was uploaded. */
    blueprintFile: text('blueprint_file'),
    blueprintMime: text('blueprint_mime'),
    blueprintWidth: integer('blueprint_width'),
    blueprintHeight: integer('blueprint_height'),
    aLat: doublePrecision('a_lat').notNull(),
    aLong: doublePrecision('a_long').notNull(),
    bLat: doublePrecision('b_lat').notNull(),
    bLong: doublePrecision('b_long').notNull(),
    cLat: doublePrecision('c_lat').notNull(),
    cLong: doublePrecision('c_long').notNull(),
    dLat: doublePrecision('d_lat').notNull(),
    dLong: doublePrecision('d_long').notNull(),
    /** Edge of the analytics grid's cells, in metres (src/domain/geo.ts `floorGrid`). */
    cellSizeMetres: doublePrecision('cell_size_m').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('floors_building_idx').on(t.buildingId)],
);

/** A named polygon on a floor; vertices are [long, lat], the ring open. */
export const zones = pgTable(
  'zones',
  {
    id: serial('id').primaryKey(),
    floorId: integer('floor_id')
      .notNull()
      .references(() => floors.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** work | restricted | assembly */
    kind: text('kind').notNull(),
    coordinates: jsonb('coordinates').$type<[number, number][]>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('zones_floor_name_unique').on(t.floorId, sql`lower(${t.name})`),
    check('zones_kind_check', sql`${t.kind} in ('work', 'restricted', 'assembly')`),
  ],
);

/**
 * Every device of a site: helmets (worker tags), anchors and sinks, keyed by the WNT inventory
 * id the radio network reports. It also holds each device's last known state (position, floor,
 * zone, flags, last_seen), which live positions update in place and the live state is rebuilt
 * from at start. A helmet is assigned to a worker by `worker_id` (the workers table adds the
 * foreign key); the link lives here only, so a helmet has at most one worker.
 */
export const inventoryItems = pgTable(
  'inventory_items',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    networkId: integer('network_id').references(() => networks.id, { onDelete: 'set null' }),
    wntInventoryId: text('wnt_inventory_id').notNull(),
    /** helmet | anchor | sink */
    type: text('type').notNull(),
    floorId: integer('floor_id').references(() => floors.id, { onDelete: 'set null' }),
    zoneId: integer('zone_id').references(() => zones.id, { onDelete: 'set null' }),
    lat: doublePrecision('lat'),
    long: doublePrecision('long'),
    isOnline: boolean('is_online').notNull().default(false),
    isActive: boolean('is_active').notNull().default(false),
    /** Anchors only: placed and confirmed (spec §4); unapproving clears lat/long. */
    isApproved: boolean('is_approved').notNull().default(false),
    workerId: integer('worker_id').references(() => workers.id, { onDelete: 'set null' }),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    lastSeen: timestamp('last_seen', { withTimezone: true }),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }),
    /**
     * Anchors only: since when the reported displacement has stayed over the site's threshold
     * (null while it is within); an "anchor moved" incident is raised a minute after it.
     */
    displacedSince: timestamp('displaced_since', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('inventory_items_site_wnt_unique').on(t.siteId, t.wntInventoryId),
    uniqueIndex('inventory_items_worker_unique').on(t.workerId).where(sql`${t.workerId} is not null`),
    index('inventory_items_floor_idx').on(t.floorId),
    index('inventory_items_network_idx').on(t.networkId),
    check('inventory_items_type_check', sql`${t.type} in ('helmet', 'anchor', 'sink')`),
  ],
);

/** Site-scoped name lists (spec §3): names are unique per site, case-insensitive and trimmed. */
export const workerRoles = pgTable(
  'worker_roles',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('worker_roles_site_name_unique').on(t.siteId, sql`lower(trim(${t.name}))`)],
);

export const subcontractors = pgTable(
  'subcontractors',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('subcontractors_site_name_unique').on(t.siteId, sql`lower(trim(${t.name}))`)],
);

export const workers = pgTable(
  'workers',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    workerTagId: text('worker_tag_id'),
    contactNumber: text('contact_number'),
    helmetColor: text('helmet_color'),
    /** File name under `${dataDir}/workers/`; null when no picture was uploaded. */
    pictureFile: text('picture_file'),
    workerRoleId: integer('worker_role_id').references(() => workerRoles.id, { onDelete: 'set null' }),
    subcontractorId: integer('subcontractor_id').references(() => subcontractors.id, {
      onDelete: 'set null',
    }),
    /**
     * What the list's search reads: name and tag, lower-cased once on write instead of on every
     * search (a unit separator between them, so no search matches across the two).
     */
    searchText: text('search_text').generatedAlwaysAs(
      (): SQL => sql`lower(${workers.name}) || chr(31) || lower(coalesce(${workers.workerTagId}, ''))`,
    ),
    /**
     * The lower-cased id of the helmet the worker wears, for the same search: kept by a trigger on
     * inventory_items (migration 0007), so a search reads one row per worker and no helmet table.
     */
    helmetSearchText: text('helmet_search_text'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('workers_site_idx').on(t.siteId),
    index('workers_site_name_idx').on(t.siteId, t.name),
    // The worker list's default order (name, then id): a page is an index walk that stops after it.
    index('workers_site_lower_name_idx').on(t.siteId, sql`lower(${t.name})`, t.id),
  ],
);

/**
 * A per-site counter that moves whenever a worker or a worn helmet changes (database triggers, at
 * commit; migration 0006): list totals are kept per revision and counted again only when it moves.
 */
export const workforceRevisions = pgTable('workforce_revisions', {
  siteId: integer('site_id').primaryKey(),
  revision: bigint('revision', { mode: 'number' }).notNull().default(0),
});

export const crews = pgTable(
  'crews',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('crews_site_name_unique').on(t.siteId, sql`lower(trim(${t.name}))`)],
);

/** A worker's crew from `assigned_at` (a date in the site's time zone) until a later assignment. */
export const crewAssignments = pgTable(
  'crew_assignments',
  {
    id: serial('id').primaryKey(),
    crewId: integer('crew_id')
      .notNull()
      .references(() => crews.id, { onDelete: 'cascade' }),
    workerId: integer('worker_id')
      .notNull()
      .references(() => workers.id, { onDelete: 'cascade' }),
    assignedAt: date('assigned_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('crew_assignments_worker_idx').on(t.workerId, t.assignedAt)],
);

/** Users with the crew-manager role see the workers of the crews they manage. */
export const crewManagers = pgTable(
  'crew_managers',
  {
    crewId: integer('crew_id')
      .notNull()
      .references(() => crews.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.crewId, t.userId] })],
);

export interface ShiftBreak {
  /** HH:mm in the site's time zone. */
  start: string;
  end: string;
}

export const workshifts = pgTable(
  'workshifts',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    category: text('category').notNull().default(''),
    /** Days of the week without work, 0 = Sunday. */
    nonWorkingDays: jsonb('non_working_days').$type<number[]>().notNull().default([]),
    /** HH:mm in the site's time zone; an end before the start crosses midnight. */
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
    breaks: jsonb('breaks').$type<ShiftBreak[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('workshifts_site_name_unique').on(t.siteId, sql`lower(trim(${t.name}))`)],
);

export const workshiftAssignments = pgTable(
  'workshift_assignments',
  {
    id: serial('id').primaryKey(),
    workshiftId: integer('workshift_id')
      .notNull()
      .references(() => workshifts.id, { onDelete: 'cascade' }),
    workerId: integer('worker_id')
      .notNull()
      .references(() => workers.id, { onDelete: 'cascade' }),
    assignedAt: date('assigned_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('workshift_assignments_worker_idx').on(t.workerId, t.assignedAt)],
);

/**
 * The time series of helmet positions. One row per (helmet, timestamp): a redelivered message
 * inserts nothing. The worker is the one wearing the helmet at that time.
 */
export const positions = pgTable(
  'positions',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    inventoryItemId: integer('inventory_item_id')
      .notNull()
      .references(() => inventoryItems.id, { onDelete: 'cascade' }),
    workerId: integer('worker_id'),
    floorId: integer('floor_id'),
    zoneId: integer('zone_id'),
    lat: doublePrecision('lat').notNull(),
    long: doublePrecision('long').notNull(),
    isOnline: boolean('is_online').notNull(),
    isActive: boolean('is_active').notNull(),
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.inventoryItemId, t.ts] }),
    index('positions_floor_ts_idx').on(t.floorId, t.ts),
    index('positions_worker_ts_idx').on(t.workerId, t.ts),
    index('positions_site_ts_idx').on(t.siteId, t.ts),
  ],
);

/**
 * Heatmap rollup: worker-seconds per floor × grid cell × 1-minute bucket, written in the ingest's
 * transaction from the position rows that transaction actually inserted (a redelivery adds
 * nothing). One stored position counts POSITION_SAMPLE_SECONDS (src/domain/analytics). Outlives
 * the raw positions' retention.
 */
export const presenceCellMinutes = pgTable(
  'presence_cell_minutes',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    floorId: integer('floor_id')
      .notNull()
      .references(() => floors.id, { onDelete: 'cascade' }),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    cellX: integer('cell_x').notNull(),
    cellY: integer('cell_y').notNull(),
    workerSeconds: integer('worker_seconds').notNull(),
  },
  (t) => [primaryKey({ columns: [t.floorId, t.bucket, t.cellX, t.cellY] })],
);

/**
 * Presence rollup: seconds per worker × floor × zone (null: on the floor outside every zone) ×
 * 1-minute bucket; the dwell per zone × worker × minute, and the base of the gateway's presence
 * cube. Positions of helmets without a worker are not counted here. Outlives raw positions.
 */
export const presenceMinutes = pgTable(
  'presence_minutes',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    workerId: integer('worker_id')
      .notNull()
      .references(() => workers.id, { onDelete: 'cascade' }),
    floorId: integer('floor_id')
      .notNull()
      .references(() => floors.id, { onDelete: 'cascade' }),
    zoneId: integer('zone_id').references(() => zones.id, { onDelete: 'cascade' }),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    seconds: integer('seconds').notNull(),
  },
  (t) => [
    unique('presence_minutes_key').on(t.workerId, t.bucket, t.floorId, t.zoneId).nullsNotDistinct(),
    index('presence_minutes_site_bucket_idx').on(t.siteId, t.bucket),
    index('presence_minutes_zone_bucket_idx').on(t.zoneId, t.bucket),
  ],
);

/** A helmet entering or leaving a zone, computed at ingest. */
export const zoneEvents = pgTable(
  'zone_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    inventoryItemId: integer('inventory_item_id')
      .notNull()
      .references(() => inventoryItems.id, { onDelete: 'cascade' }),
    workerId: integer('worker_id'),
    floorId: integer('floor_id'),
    zoneId: integer('zone_id').notNull(),
    /** enter | exit */
    kind: text('kind').notNull(),
    ts: timestamp('ts', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('zone_events_unique').on(t.inventoryItemId, t.zoneId, t.kind, t.ts),
    index('zone_events_zone_ts_idx').on(t.zoneId, t.ts),
    index('zone_events_worker_ts_idx').on(t.workerId, t.ts),
    check('zone_events_kind_check', sql`${t.kind} in ('enter', 'exit')`),
  ],
);

/** Helmet buttons and alarms (acknowledge now; SOS, fall, no-motion with the safety issue). */
export const helmetEvents = pgTable(
  'helmet_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    inventoryItemId: integer('inventory_item_id')
      .notNull()
      .references(() => inventoryItems.id, { onDelete: 'cascade' }),
    workerId: integer('worker_id'),
    type: text('type').notNull(),
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('helmet_events_unique').on(t.inventoryItemId, t.type, t.ts),
    index('helmet_events_site_ts_idx').on(t.siteId, t.ts),
  ],
);

/**
 * Anchor and sink diagnostics reported on `sitewatch/{siteId}/nodes`, partitioned by UTC day
 * like `positions` (migration 0011; same retention, POSITIONS_RETENTION_DAYS). `floor_id` is the
 * node's floor when the report arrived; `lat`/`long` the position the network computed for it;
 * `displacement_error` the metres between that and where the node was placed (null when it was
 * not placed), computed by the ingest with src/domain/geo.ts.
 */
export const nodeDiagnostics = pgTable(
  'node_diagnostics',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    inventoryItemId: integer('inventory_item_id')
      .notNull()
      .references(() => inventoryItems.id, { onDelete: 'cascade' }),
    floorId: integer('floor_id'),
    networkId: integer('network_id'),
    nodeId: text('node_id').notNull(),
    type: text('type').notNull(),
    bufferUsage: doublePrecision('buffer_usage'),
    linkQuality: doublePrecision('link_quality'),
    batteryVoltage: doublePrecision('battery_voltage'),
    displacementError: doublePrecision('displacement_error'),
    lat: doublePrecision('lat'),
    long: doublePrecision('long'),
    /** The radio links the node heard: `[{ nodeId, linkQuality, rssi? }]`. */
    neighbors: jsonb('neighbors').$type<NodeNeighbor[]>().notNull().default([]),
    ts: timestamp('ts', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.inventoryItemId, t.ts] }),
    index('node_diagnostics_floor_ts_idx').on(t.floorId, t.ts),
    index('node_diagnostics_site_ts_idx').on(t.siteId, t.ts),
  ],
);

/** Per-site settings of the maintenance kit. */
export const siteMaintenanceSettings = pgTable('site_maintenance_settings', {
  siteId: integer('site_id')
    .primaryKey()
    .references(() => sites.id, { onDelete: 'cascade' }),
  /** Metres: an anchor further than this from its place for a minute raises "anchor moved". */
  anchorMovedThresholdM: doublePrecision('anchor_moved_threshold_m').notNull(),
  updatedAt: updatedAt(),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

/** Tokens a site's gateways present to POST /api/ingest/{siteId}/positions; stored hashed. */
export const deviceTokens = pgTable(
  'device_tokens',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    label: text('label').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The token in Mosquitto's password-file format (`$7$`), for an external broker's password file. */
    brokerPasswordHash: text('broker_password_hash'),
  },
  (t) => [uniqueIndex('device_tokens_hash_unique').on(t.tokenHash)],
);

/**
 * One evacuation of a site (spec §3 "Evacuation"). At most one runs per site: the partial unique
 * index refuses a second start even when two server processes race.
 */
export const evacuationSessions = pgTable(
  'evacuation_sessions',
  {
    id: text('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    startedBy: integer('started_by').references(() => users.id, { onDelete: 'set null' }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endedBy: integer('ended_by').references(() => users.id, { onDelete: 'set null' }),
    floorIds: jsonb('floor_ids').$type<number[]>().notNull(),
    zoneIds: jsonb('zone_ids').$type<number[]>().notNull(),
    assemblyZoneIds: jsonb('assembly_zone_ids').$type<number[]>().notNull(),
    safeZoneId: integer('safe_zone_id'),
    gatewayId: integer('gateway_id'),
    evacuationFloorIds: jsonb('evacuation_floor_ids').$type<number[]>().notNull(),
  },
  (t) => [
    uniqueIndex('evacuation_sessions_one_running').on(t.siteId).where(sql`${t.endedAt} is null`),
    index('evacuation_sessions_site_started_idx').on(t.siteId, t.startedAt),
  ],
);

/** An included worker's current state in a session (src/domain/evacuationRules.ts). */
export const evacuationWorkers = pgTable(
  'evacuation_workers',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => evacuationSessions.id, { onDelete: 'cascade' }),
    workerId: integer('worker_id').notNull(),
    inventoryItemId: integer('inventory_item_id').notNull(),
    /** offline | safe | manualAcknowledge | autoAcknowledge */
    status: text('status').notNull(),
    includedAt: timestamp('included_at', { withTimezone: true }).notNull(),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull(),
    safeAt: timestamp('safe_at', { withTimezone: true }),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    accountedAt: timestamp('accounted_at', { withTimezone: true }),
    /** The floor the helmet was on when the worker was included: the floor they must clear. */
    originFloorId: integer('origin_floor_id'),
    /** First time the worker's helmet was seen off that floor after inclusion. */
    leftFloorAt: timestamp('left_floor_at', { withTimezone: true }),
    /** When a redirect asked the worker to go to another assembly zone, and which one. */
    redirectedAt: timestamp('redirected_at', { withTimezone: true }),
    redirectZoneId: integer('redirect_zone_id'),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.workerId] }),
    index('evacuation_workers_inventory_idx').on(t.inventoryItemId),
  ],
);

/** Every status change of a session, with its time and cause: the report is built from these. */
export const evacuationStatusEvents = pgTable(
  'evacuation_status_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => evacuationSessions.id, { onDelete: 'cascade' }),
    workerId: integer('worker_id').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    cause: text('cause').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('evacuation_status_events_session_idx').on(t.sessionId, t.id)],
);

/** A person on a session's roll without a helmet, added by a marshal (src/domain/rollCall.ts). */
export const evacuationRollPeople = pgTable(
  'evacuation_roll_people',
  {
    id: serial('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => evacuationSessions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    company: text('company').notNull().default(''),
    addedBy: integer('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('evacuation_roll_people_session_idx').on(t.sessionId)],
);

/**
 * A marshal's mark: a worker (or a person added to the roll) accounted for by hand, with a reason.
 * Undoing keeps the row (who and when); the active mark is the latest one not undone.
 */
export const evacuationMarks = pgTable(
  'evacuation_marks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => evacuationSessions.id, { onDelete: 'cascade' }),
    workerId: integer('worker_id'),
    rollPersonId: integer('roll_person_id').references(() => evacuationRollPeople.id, {
      onDelete: 'cascade',
    }),
    reason: text('reason').notNull(),
    markedBy: integer('marked_by').references(() => users.id, { onDelete: 'set null' }),
    markedAt: timestamp('marked_at', { withTimezone: true }).notNull(),
    undoneBy: integer('undone_by').references(() => users.id, { onDelete: 'set null' }),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (t) => [
    index('evacuation_marks_session_idx').on(t.sessionId, t.id),
    check('evacuation_marks_one_subject', sql`(${t.workerId} is null) <> (${t.rollPersonId} is null)`),
  ],
);

/** Changes to a running session's area: floors or zones added, an assembly zone marked unsafe. */
export const evacuationScopeEvents = pgTable(
  'evacuation_scope_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => evacuationSessions.id, { onDelete: 'cascade' }),
    /** addArea | assemblyUnsafe */
    kind: text('kind').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
    by: integer('by').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('evacuation_scope_events_session_idx').on(t.sessionId, t.id)],
);

/**
 * Alarm commands published to helmets on `{root}/{siteId}/commands` (QoS 1), and when each helmet
 * confirmed with an `alarmReceived` event.
 */
export const evacuationAlarms = pgTable(
  'evacuation_alarms',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => evacuationSessions.id, { onDelete: 'cascade' }),
    commandId: text('command_id').notNull(),
    inventoryItemId: integer('inventory_item_id').notNull(),
    workerId: integer('worker_id'),
    /** evacuate | redirect */
    kind: text('kind').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('evacuation_alarms_command_unique').on(t.commandId, t.inventoryItemId),
    index('evacuation_alarms_session_idx').on(t.sessionId, t.inventoryItemId),
  ],
);

/**
 * A site's safety settings. possiblyInsideHours: how long before an alarm a silent helmet still
 * counts as possibly inside (null: since the start of the current shift, at most 12 h).
 * escalationLevels: the staged escalation of incidents (src/domain/escalation.ts).
 */
export const siteSafetySettings = pgTable('site_safety_settings', {
  siteId: integer('site_id')
    .primaryKey()
    .references(() => sites.id, { onDelete: 'cascade' }),
  possiblyInsideHours: numeric('possibly_inside_hours', { mode: 'number' }),
  escalationLevels: jsonb('escalation_levels').$type<unknown[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every step of an incident's life: raised, escalated (to a level), acknowledged, resolved. */
export const incidentEvents = pgTable(
  'incident_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    incidentId: integer('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    /** raised | escalated | acknowledged | resolved */
    kind: text('kind').notNull(),
    level: integer('level'),
    by: integer('by').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('incident_events_incident_idx').on(t.incidentId, t.id)],
);

/** Helmet alarms and restricted-zone entries (src/domain/incidents.ts). */
export const incidents = pgTable(
  'incidents',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** sos | fall | noMotion | restrictedZone | reEntry | anchorMoved | permitAreaEntry */
    type: text('type').notNull(),
    /** open | escalated */
    status: text('status').notNull().default('open'),
    inventoryItemId: integer('inventory_item_id')
      .notNull()
      .references(() => inventoryItems.id, { onDelete: 'cascade' }),
    workerId: integer('worker_id'),
    floorId: integer('floor_id'),
    zoneId: integer('zone_id'),
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    escalatedAt: timestamp('escalated_at', { withTimezone: true }),
    escalatedBy: integer('escalated_by').references(() => users.id, { onDelete: 'set null' }),
    /** The escalation level reached (0: not escalated) and when the next automatic step is due. */
    level: integer('level').notNull().default(0),
    nextEscalationAt: timestamp('next_escalation_at', { withTimezone: true }),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: integer('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    /** permitAreaEntry only: the work permit whose area was entered. */
    workPermitId: integer('work_permit_id').references(() => workPermits.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('incidents_unique').on(t.inventoryItemId, t.type, t.ts),
    index('incidents_site_ts_idx').on(t.siteId, t.ts),
    check(
      'incidents_type_check',
      sql`${t.type} in ('sos', 'fall', 'noMotion', 'restrictedZone', 'reEntry', 'anchorMoved', 'permitAreaEntry')`,
    ),
    check('incidents_status_check', sql`${t.status} in ('open', 'escalated', 'acknowledged', 'resolved')`),
    index('incidents_next_escalation_idx').on(t.nextEscalationAt),
  ],
);

/** Every time a helmet was handed to a worker and taken back (inventory_items holds the current one). */
export const helmetAssignments = pgTable(
  'helmet_assignments',
  {
    id: serial('id').primaryKey(),
    inventoryItemId: integer('inventory_item_id')
      .notNull()
      .references(() => inventoryItems.id, { onDelete: 'cascade' }),
    workerId: integer('worker_id')
      .notNull()
      .references(() => workers.id, { onDelete: 'cascade' }),
    assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull(),
    unassignedAt: timestamp('unassigned_at', { withTimezone: true }),
    assignedBy: integer('assigned_by').references(() => users.id, { onDelete: 'set null' }),
    unassignedBy: integer('unassigned_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('helmet_assignments_worker_idx').on(t.workerId, t.assignedAt),
    index('helmet_assignments_item_idx').on(t.inventoryItemId, t.assignedAt),
    // One open assignment per helmet: a second concurrent assignment fails on this index.
    uniqueIndex('helmet_assignments_open_unique').on(t.inventoryItemId).where(sql`${t.unassignedAt} is null`),
  ],
);

/** Installation planning (spec §7): a wall is a polyline on a floor whose material sets its attenuation. */
export const walls = pgTable(
  'walls',
  {
    id: serial('id').primaryKey(),
    floorId: integer('floor_id')
      .notNull()
      .references(() => floors.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** drywall | brick | concrete | glass | metal */
    material: text('material').notNull(),
    /** The polyline's vertices as [long, lat], at least two, open. */
    points: jsonb('points').$type<[number, number][]>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('walls_floor_name_unique').on(t.floorId, sql`lower(${t.name})`),
    check('walls_material_check', sql`${t.material} in ('drywall', 'brick', 'concrete', 'glass', 'metal')`),
  ],
);

/** Where an anchor is meant to go (spec §3 "Planning anchor"): a name and two numbers, its coordinates. */
export const planningAnchors = pgTable(
  'planning_anchors',
  {
    id: serial('id').primaryKey(),
    floorId: integer('floor_id')
      .notNull()
      .references(() => floors.id, { onDelete: 'cascade' }),
    /** The anchor's planning name (spec's anchor_id), unique on its floor. */
    anchorId: text('anchor_id').notNull(),
    lat: doublePrecision('lat').notNull(),
    long: doublePrecision('long').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('planning_anchors_floor_anchor_unique').on(t.floorId, sql`lower(${t.anchorId})`)],
);

/** Every approval and unapproval of an installed anchor, with the evidence seen and any override. */
export const anchorApprovals = pgTable(
  'anchor_approvals',
  {
    id: serial('id').primaryKey(),
    inventoryItemId: integer('inventory_item_id')
      .notNull()
      .references(() => inventoryItems.id, { onDelete: 'cascade' }),
    /** approve | unapprove */
    action: text('action').notNull(),
    floorId: integer('floor_id').references(() => floors.id, { onDelete: 'set null' }),
    planningAnchorId: integer('planning_anchor_id').references(() => planningAnchors.id, {
      onDelete: 'set null',
    }),
    lat: doublePrecision('lat'),
    long: doublePrecision('long'),
    /** Metres between the installed (computed) position and the planning anchor, when both were known. */
    distanceM: doublePrecision('distance_m'),
    linkQuality: doublePrecision('link_quality'),
    /** Set when the evidence check failed and the approver went ahead anyway. */
    overrideReason: text('override_reason'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    ts: timestamp('ts', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('anchor_approvals_item_idx').on(t.inventoryItemId, t.ts),
    check('anchor_approvals_action_check', sql`${t.action} in ('approve', 'unapprove')`),
  ],
);

/** Per-site radio model and approval evidence settings; a site without a row uses the defaults. */
export const siteRadioSettings = pgTable('site_radio_settings', {
  siteId: integer('site_id')
    .primaryKey()
    .references(() => sites.id, { onDelete: 'cascade' }),
  /** The whole setting object (src/domain radio settings), validated before it is stored. */
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
  updatedAt: updatedAt(),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

/** A work permit over an area of a floor (spec §7 "Work permits and grid"). */
export const workPermits = pgTable(
  'work_permits',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    floorId: integer('floor_id')
      .notNull()
      .references(() => floors.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    /** hotWork | workAtHeight | confinedSpace | electricalIsolation | excavation | other */
    type: text('type').notNull(),
    /** The area's ring as [long, lat], open. */
    area: jsonb('area').$type<[number, number][]>().notNull(),
    holderCrewId: integer('holder_crew_id').references(() => crews.id, { onDelete: 'restrict' }),
    holderSubcontractorId: integer('holder_subcontractor_id').references(() => subcontractors.id, {
      onDelete: 'restrict',
    }),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
    validTo: timestamp('valid_to', { withTimezone: true }).notNull(),
    /** draft | active | suspended | closed */
    status: text('status').notNull().default('draft'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('work_permits_site_number_unique').on(t.siteId, sql`lower(${t.number})`),
    index('work_permits_floor_idx').on(t.floorId),
    check(
      'work_permits_type_check',
      sql`${t.type} in ('hotWork', 'workAtHeight', 'confinedSpace', 'electricalIsolation', 'excavation', 'other')`,
    ),
    check('work_permits_status_check', sql`${t.status} in ('draft', 'active', 'suspended', 'closed')`),
    check(
      'work_permits_one_holder_check',
      sql`(${t.holderCrewId} is null) <> (${t.holderSubcontractorId} is null)`,
    ),
    check('work_permits_validity_check', sql`${t.validTo} > ${t.validFrom}`),
  ],
);

/**
 * A floor's structural grid (spec's "grid fields", read in docs/decisions.md): the lettered and
 * numbered axis lines of the construction drawings, so that a place can be named "C-4".
 */
export const gridFields = pgTable(
  'grid_fields',
  {
    id: serial('id').primaryKey(),
    floorId: integer('floor_id')
      .notNull()
      .references(() => floors.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** `{ columns: [{ label, offsetM }], rows: [{ label, offsetM }] }`, offsets from corner a along a→b and a→d. */
    axes: jsonb('axes').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('grid_fields_floor_name_unique').on(t.floorId, sql`lower(${t.name})`)],
);

/** An electrical room of a building, where sinks and gateways are installed. */
export const electricalRooms = pgTable(
  'electrical_rooms',
  {
    id: serial('id').primaryKey(),
    buildingId: integer('building_id')
      .notNull()
      .references(() => buildings.id, { onDelete: 'cascade' }),
    floorId: integer('floor_id').references(() => floors.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('electrical_rooms_building_name_unique').on(t.buildingId, sql`lower(${t.name})`)],
);

/** The devices installed in an electrical room: sinks (inventory items) and gateways (networks). */
export const electricalRoomDevices = pgTable(
  'electrical_room_devices',
  {
    id: serial('id').primaryKey(),
    roomId: integer('room_id')
      .notNull()
      .references(() => electricalRooms.id, { onDelete: 'cascade' }),
    inventoryItemId: integer('inventory_item_id').references(() => inventoryItems.id, {
      onDelete: 'cascade',
    }),
    networkId: integer('network_id').references(() => networks.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('electrical_room_devices_item_unique')
      .on(t.inventoryItemId)
      .where(sql`${t.inventoryItemId} is not null`),
    uniqueIndex('electrical_room_devices_network_unique')
      .on(t.networkId)
      .where(sql`${t.networkId} is not null`),
    check(
      'electrical_room_devices_one_device_check',
      sql`(${t.inventoryItemId} is null) <> (${t.networkId} is null)`,
    ),
  ],
);

/** A checklist step of an electrical room's installation, once completed: who and when. */
export const electricalRoomSteps = pgTable(
  'electrical_room_steps',
  {
    roomId: integer('room_id')
      .notNull()
      .references(() => electricalRooms.id, { onDelete: 'cascade' }),
    /** A step key of the checklist in src/domain. */
    step: text('step').notNull(),
    completedBy: integer('completed_by').references(() => users.id, { onDelete: 'set null' }),
    completedAt: timestamp('completed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.step] })],
);

/**
 * A named set of a site's rows (spec §7 "groups"): location groups gather zones, crew groups
 * crews, subcontractor groups subcontractors, worker role groups worker roles. Names are unique
 * per site and kind, case-insensitive and trimmed.
 */
const siteGroupTable = (name: string) =>
  pgTable(
    name,
    {
      id: serial('id').primaryKey(),
      siteId: integer('site_id')
        .notNull()
        .references(() => sites.id, { onDelete: 'cascade' }),
      name: text('name').notNull(),
      createdAt: createdAt(),
      updatedAt: updatedAt(),
    },
    (t) => [uniqueIndex(`${name}_site_name_unique`).on(t.siteId, sql`lower(trim(${t.name}))`)],
  );

export const locationGroups = siteGroupTable('location_groups');
export const crewGroups = siteGroupTable('crew_groups');
export const subcontractorGroups = siteGroupTable('subcontractor_groups');
export const workerRoleGroups = siteGroupTable('worker_role_groups');

/** A zone's place in a location group (a zone may be in several groups). */
export const locationGroupZones = pgTable(
  'location_group_zones',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => locationGroups.id, { onDelete: 'cascade' }),
    zoneId: integer('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.zoneId] }),
    index('location_group_zones_zone_idx').on(t.zoneId),
  ],
);

export const crewGroupCrews = pgTable(
  'crew_group_crews',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => crewGroups.id, { onDelete: 'cascade' }),
    crewId: integer('crew_id')
      .notNull()
      .references(() => crews.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.crewId] })],
);

export const subcontractorGroupMembers = pgTable(
  'subcontractor_group_members',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => subcontractorGroups.id, { onDelete: 'cascade' }),
    subcontractorId: integer('subcontractor_id')
      .notNull()
      .references(() => subcontractors.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.subcontractorId] })],
);

export const workerRoleGroupMembers = pgTable(
  'worker_role_group_members',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => workerRoleGroups.id, { onDelete: 'cascade' }),
    workerRoleId: integer('worker_role_id')
      .notNull()
      .references(() => workerRoles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.workerRoleId] })],
);

/** Where a worker is meant to work from `assigned_at` (a site-local date) until a later assignment. */
export const workerLocationAssignments = pgTable(
  'worker_location_assignments',
  {
    id: serial('id').primaryKey(),
    workerId: integer('worker_id')
      .notNull()
      .references(() => workers.id, { onDelete: 'cascade' }),
    locationGroupId: integer('location_group_id')
      .notNull()
      .references(() => locationGroups.id, { onDelete: 'cascade' }),
    assignedAt: date('assigned_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('worker_location_assignments_worker_idx').on(t.workerId, t.assignedAt)],
);

/** A site's worker statuses (on leave, injured, inducted, suspended…). */
export const workerStatuses = siteGroupTable('worker_statuses');

/** A worker's status from `starts_on` to `ends_on` (site-local dates, both included; open-ended when null). */
export const workerStatusAssignments = pgTable(
  'worker_status_assignments',
  {
    id: serial('id').primaryKey(),
    workerId: integer('worker_id')
      .notNull()
      .references(() => workers.id, { onDelete: 'cascade' }),
    statusId: integer('status_id')
      .notNull()
      .references(() => workerStatuses.id, { onDelete: 'cascade' }),
    startsOn: date('starts_on').notNull(),
    endsOn: date('ends_on'),
    notes: text('notes'),
    createdAt: createdAt(),
  },
  (t) => [
    index('worker_status_assignments_worker_idx').on(t.workerId, t.startsOn),
    check('worker_status_assignments_range_check', sql`${t.endsOn} is null or ${t.endsOn} >= ${t.startsOn}`),
  ],
);

/**
 * Attendance typed by people (an attendance upload): one row per worker and site-local day. It
 * stands beside the attendance computed from positions; the report shows both and the manual wins.
 */
export const manualAttendance = pgTable(
  'manual_attendance',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    workerId: integer('worker_id')
      .notNull()
      .references(() => workers.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    /** HH:mm, site-local; null when the worker was marked absent. */
    checkIn: text('check_in'),
    checkOut: text('check_out'),
    present: boolean('present').notNull(),
    notes: text('notes'),
    uploadId: text('upload_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('manual_attendance_worker_day_unique').on(t.workerId, t.day),
    index('manual_attendance_site_day_idx').on(t.siteId, t.day),
  ],
);

/** Hours a worker reports against a day (report-hours upload), in hundredths of an hour. */
export const reportedHours = pgTable(
  'reported_hours',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    workerId: integer('worker_id')
      .notNull()
      .references(() => workers.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    hours: numeric('hours', { precision: 6, scale: 2 }).notNull(),
    activityId: integer('activity_id').references(() => activities.id, { onDelete: 'set null' }),
    notes: text('notes'),
    uploadId: text('upload_id'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('reported_hours_worker_day_activity_key').on(t.workerId, t.day, t.activityId).nullsNotDistinct(),
    index('reported_hours_site_day_idx').on(t.siteId, t.day),
  ],
);

/** eTQR activity codes (spec §3): a unit of measure and a target rate (quantity per hour). */
export const activityCodes = pgTable(
  'activity_codes',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    uom: text('uom').notNull(),
    targetRate: numeric('target_rate', { precision: 12, scale: 4 }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('activity_codes_site_code_unique').on(t.siteId, sql`lower(trim(${t.code}))`)],
);

/** eTQR activities (spec §3, §4 statuses); shown and approved by the productivity screen. */
export const activities = pgTable(
  'activities',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    activityCodeId: integer('activity_code_id')
      .notNull()
      .references(() => activityCodes.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    crewId: integer('crew_id').references(() => crews.id, { onDelete: 'set null' }),
    locationGroupId: integer('location_group_id').references(() => locationGroups.id, {
      onDelete: 'set null',
    }),
    zoneId: integer('zone_id').references(() => zones.id, { onDelete: 'set null' }),
    day: date('day').notNull(),
    targetQuantity: numeric('target_quantity', { precision: 12, scale: 2 }),
    plannedQuantity: numeric('planned_quantity', { precision: 12, scale: 2 }).notNull(),
    plannedHours: numeric('planned_hours', { precision: 8, scale: 2 }).notNull(),
    status: text('status').notNull().default('assigned'),
    /** Quantity installed so far, booked by the crew (earned hours = installed ÷ target rate). */
    installedQuantity: numeric('installed_quantity', { precision: 12, scale: 2 }),
    bookedHours: numeric('booked_hours', { precision: 8, scale: 2 }),
    /** Actual hours typed over the presence-derived figure; null keeps the presence figure. */
    actualHours: numeric('actual_hours', { precision: 8, scale: 2 }),
    /** The reason of the last rejection, cleared by the next submission. */
    rejectionReason: text('rejection_reason'),
    /** Moves on every write; an approval naming an older version is refused as stale. */
    version: integer('version').notNull().default(1),
    uploadId: text('upload_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('activities_site_day_name_unique').on(t.siteId, t.day, sql`lower(trim(${t.name}))`),
    index('activities_site_day_idx').on(t.siteId, t.day),
    check(
      'activities_status_check',
      sql`${t.status} in ('assigned', 'in_progress', 'delayed', 'done', 'in_review', 'approved_by_cm', 'approved')`,
    ),
  ],
);

/** Reasons an activity lost hours (spec §3 "Delay": reason); each site gets defaults. */
export const delayCodes = pgTable(
  'delay_codes',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('delay_codes_site_code_unique').on(t.siteId, sql`lower(trim(${t.code}))`)],
);

/** A delay booked against an activity (spec §3 "Delay": reason, hours lost, notes). */
export const activityDelays = pgTable(
  'activity_delays',
  {
    id: serial('id').primaryKey(),
    activityId: integer('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    delayCodeId: integer('delay_code_id')
      .notNull()
      .references(() => delayCodes.id, { onDelete: 'restrict' }),
    hoursLost: numeric('hours_lost', { precision: 8, scale: 2 }).notNull(),
    notes: text('notes'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('activity_delays_activity_idx').on(t.activityId),
    check('activity_delays_hours_check', sql`${t.hoursLost} > 0`),
  ],
);

/** Every status change of an activity: who moved it, from what, to what, and why. */
export const activityStatusChanges = pgTable(
  'activity_status_changes',
  {
    id: serial('id').primaryKey(),
    activityId: integer('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status').notNull(),
    toStatus: text('to_status').notNull(),
    reason: text('reason'),
    changedBy: integer('changed_by').references(() => users.id, { onDelete: 'set null' }),
    changedAt: createdAt(),
  },
  (t) => [index('activity_status_changes_activity_idx').on(t.activityId, t.changedAt)],
);

/** A Power BI report linked to a site (spec §7 "Clients and sites" power-bi). */
export const powerBiReports = pgTable(
  'power_bi_reports',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    embedUrl: text('embed_url').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('power_bi_reports_site_name_unique').on(t.siteId, sql`lower(trim(${t.name}))`)],
);

/**
 * An Excel upload (spec §7 uploads, mode draft by default): the client names it (the bulk
 * sub-API's paths end in that id), the server stores every parsed row with its errors, and a
 * commit writes the rows to their tables in one transaction.
 */
export const bulkUploads = pgTable(
  'bulk_uploads',
  {
    id: text('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** An upload kind of src/domain/bulkKinds.ts. */
    kind: text('kind').notNull(),
    fileName: text('file_name').notNull(),
    /** SHA-256 of the file's bytes, hex: the same file uploaded again is recognised. */
    contentHash: text('content_hash').notNull(),
    status: text('status').notNull(),
    rowCount: integer('row_count').notNull().default(0),
    errorRowCount: integer('error_row_count').notNull().default(0),
    /** The earlier upload of the same file to the same site and kind, when there is one. */
    sameFileAs: text('same_file_as'),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    committedAt: timestamp('committed_at', { withTimezone: true }),
    committedBy: integer('committed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('bulk_uploads_site_kind_idx').on(t.siteId, t.kind, t.createdAt),
    index('bulk_uploads_site_hash_idx').on(t.siteId, t.kind, t.contentHash),
    check(
      'bulk_uploads_status_check',
      sql`${t.status} in ('validating', 'draft', 'committed', 'cancelled', 'failed')`,
    ),
  ],
);

/** One parsed row of an upload: the cells as text by column key, and its errors. */
export const bulkUploadRows = pgTable(
  'bulk_upload_rows',
  {
    uploadId: text('upload_id')
      .notNull()
      .references(() => bulkUploads.id, { onDelete: 'cascade' }),
    /** The row's number in the sheet (the header is row 1). */
    rowNumber: integer('row_number').notNull(),
    cells: jsonb('cells').$type<Record<string, string>>().notNull(),
    /** `[{ column, message }]`; empty when the row is valid. */
    errors: jsonb('errors').$type<{ column: string; message: string }[]>().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.rowNumber] })],
);
