import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { hashToken, newToken } from '../../../../server/auth/tokens';
import type { Db } from '../../../../server/db/database';
import {
  activities,
  activityCodes,
  buildings,
  bulkUploads,
  crewAssignments,
  crewManagers,
  crews,
  deviceTokens,
  electricalRoomDevices,
  electricalRooms,
  evacuationSessions,
  floors,
  gridFields,
  groupsOfSites,
  helmetAssignments,
  incidents,
  inventoryItems,
  networks,
  planningAnchors,
  powerBiReports,
  sites,
  subcontractors,
  userSites,
  users,
  walls,
  workerRoles,
  workers,
  workPermits,
  workshiftAssignments,
  workshifts,
  zones,
} from '../../../../server/db/schema';

/** Where an object lies as seen from the demo client: the matrix's object columns. */
export const SCOPES = ['own', 'other-site', 'other-client'] as const;
/**
 * Workers and crews have a fourth column: on the principal's own site, but of a crew nobody
 * manages, so outside a crew manager's reach (its crews' current members only).
 */
export const OTHER_CREW = 'other-crew';
/**
 * Routes naming an object inside another (a worker of a site, a zone of a floor) have one more:
 * the principal's own parent with another client's child, which no one reaches.
 */
export const FOREIGN_CHILD = 'foreign-child';
/** Routes whose body names objects have one where the path is the principal's and the body another client's. */
export const FOREIGN_BODY = 'foreign-body';
/** Routes that let anyone read about itself have a column where the user named is the caller. */
export const SELF = 'self';
export type Scope =
  | (typeof SCOPES)[number]
  | typeof OTHER_CREW
  | typeof FOREIGN_CHILD
  | typeof FOREIGN_BODY
  | typeof SELF;
/** The columns with an object set of their own (the others are made from them). */
export type SeededScope = Exclude<Scope, typeof FOREIGN_CHILD | typeof FOREIGN_BODY | typeof SELF>;

/** One of everything a route can name, all on one site. */
export interface SiteObjects {
  scope: SeededScope;
  clientId: number;
  siteId: number;
  buildingId: number;
  floorId: number;
  zoneId: number;
  networkId: number;
  workerRoleId: number;
  subcontractorId: number;
  crewId: number;
  workshiftId: number;
  /** A member of `crewId` since 2020, wearing `helmetId` on the floor. */
  workerId: number;
  helmetId: number;
  helmetTag: string;
  /** A worker of another crew (nobody manages it), wearing a helmet on the same floor. */
  outsiderWorkerId: number;
  outsiderCrewId: number;
  outsiderHelmetId: number;
  outsiderHelmetTag: string;
  /** A helmet nobody wears. */
  spareHelmetId: number;
  anchorId: number;
  /** The anchor's WNT inventory id: the node id the node routes name. */
  anchorTag: string;
  deviceTokenId: number;
  /** The device token itself, for the ingest. */
  deviceToken: string;
  /** An ended evacuation of the site. */
  evacuationId: string;
  incidentId: number;
  /** A group-of-sites viewer of the site (what user management acts on). */
  userId: number;
  /** An electrical room of the building, and the device row of a sink installed in it. */
  electricalRoomId: number;
  electricalRoomDeviceId: number;
  /** A draft work permit on the floor held by `crewId`, and a grid field of the floor. */
  workPermitId: number;
  gridFieldId: number;
  /** A wall and a planning anchor of the floor (installation planning). */
  wallId: number;
  planningAnchorId: number;
  /** An Excel upload of the site, still a draft. */
  uploadId: string;
  /** A Power BI report link of the site. */
  powerBiReportId: number;
  /** An activity code of the site, an activity of `crewId` with it, and one of `outsiderCrewId`. */
  activityCodeId: number;
  activityId: number;
  outsiderActivityId: number;
  /** The site's name and every name and device id the seed gave its objects: what must not leak. */
  names: readonly string[];
  /** The objects' names, which renaming calls send again so that the names above stay true. */
  labels: Record<
    'worker' | 'crew' | 'zone' | 'workerRole' | 'subcontractor' | 'workshift' | 'user' | 'electricalRoom',
    string
  >;
}

/** Kinds of object a destructive call gets a fresh one of, so one principal's DELETE spares the next. */
export type FreshKind =
  | 'floor'
  | 'zone'
  | 'worker'
  | 'user'
  | 'crew'
  | 'deviceToken'
  | 'network'
  | 'electricalRoom'
  | 'electricalRoomDevice'
  | 'workPermit'
  | 'wall'
  | 'planningAnchor'
  | 'upload';

let serial = 0;
const unique = (label: string) => `${label} ${Date.now().toString(36)}-${++serial}`;

const CORNERS = {
  aLat: 25.2,
  aLong: 55.3,
  bLat: 25.2,
  bLong: 55.301,
  cLat: 25.199,
  cLong: 55.301,
  dLat: 25.199,
  dLong: 55.3,
};
/** A zone well inside the matrix floors. */
export const MATRIX_ZONE_RING: [number, number][] = [
  [55.3002, 25.1998],
  [55.3008, 25.1998],
  [55.3008, 25.1992],
  [55.3002, 25.1992],
];

async function insertFloor(db: Db, buildingId: number) {
  const [floor] = await db
    .insert(floors)
    .values({ buildingId, name: unique('Matrix floor'), altitude: 0, ...CORNERS })
    .returning({ id: floors.id });
  return floor.id;
}

async function insertZone(db: Db, floorId: number) {
  const [zone] = await db
    .insert(zones)
    .values({ floorId, name: unique('Matrix zone'), kind: 'assembly', coordinates: MATRIX_ZONE_RING })
    .returning({ id: zones.id });
  return zone.id;
}

/** A brick wall across the matrix floor. */
async function insertWall(db: Db, floorId: number) {
  const [wall] = await db
    .insert(walls)
    .values({ floorId, name: unique('Matrix wall'), material: 'brick', points: MATRIX_ZONE_RING.slice(0, 2) })
    .returning({ id: walls.id });
  return wall.id;
}

/** A planning anchor in the middle of the matrix floor. */
async function insertPlanningAnchor(db: Db, floorId: number) {
  const [anchor] = await db
    .insert(planningAnchors)
    .values({ floorId, anchorId: unique('Matrix P'), lat: 25.1995, long: 55.3005 })
    .returning({ id: planningAnchors.id });
  return anchor.id;
}

/** A draft hot-work permit over the matrix zone's ring, held by the crew, valid for a day. */
async function insertWorkPermit(db: Db, siteId: number, floorId: number, crewId: number) {
  const now = Date.now();
  const [permit] = await db
    .insert(workPermits)
    .values({
      siteId,
      floorId,
      number: unique('MX-PTW').replace(/\s/g, ''),
      type: 'hotWork',
      area: MATRIX_ZONE_RING,
      holderCrewId: crewId,
      validFrom: new Date(now - 3_600_000),
      validTo: new Date(now + 86_400_000),
    })
    .returning({ id: workPermits.id });
  return permit.id;
}

async function insertGridField(db: Db, floorId: number) {
  const [grid] = await db
    .insert(gridFields)
    .values({
      floorId,
      name: unique('Matrix grid'),
      axes: { columns: [{ label: 'A', offset_m: 0 }], rows: [{ label: '1', offset_m: 0 }] },
    })
    .returning({ id: gridFields.id });
  return grid.id;
}

/** A worker of the site in the crew since 2020 (a crew manager of that crew reaches it). */
async function insertElectricalRoom(db: Db, buildingId: number) {
  const [room] = await db
    .insert(electricalRooms)
    .values({ buildingId, name: unique('Matrix electrical room') })
    .returning({ id: electricalRooms.id });
  return room.id;
}

/** A sink of the site installed in the room: the device row's id. */
async function insertElectricalRoomDevice(db: Db, siteId: number, roomId: number) {
  const [sink] = await db
    .insert(inventoryItems)
    .values({ siteId, wntInventoryId: unique('MX-sink').replace(/\s/g, ''), type: 'sink' })
    .returning({ id: inventoryItems.id });
  const [device] = await db
    .insert(electricalRoomDevices)
    .values({ roomId, inventoryItemId: sink.id })
    .returning({ id: electricalRoomDevices.id });
  return device.id;
}

async function insertWorker(
  db: Db,
  siteId: number,
  crewId: number,
  extra: Partial<typeof workers.$inferInsert>,
) {
  const [worker] = await db
    .insert(workers)
    .values({ siteId, name: unique('Matrix worker'), contactNumber: '+971500000000', ...extra })
    .returning({ id: workers.id });
  await db.insert(crewAssignments).values({ crewId, workerId: worker.id, assignedAt: '2020-01-01' });
  return worker.id;
}

async function insertUser(db: Db, site: { id: number; clientId: number; groupOfSitesId: number | null }) {
  const tag = unique('matrix').replace(/\W/g, '');
  const [user] = await db
    .insert(users)
    .values({
      name: `Matrix user ${tag}`,
      email: `${tag}@matrix.test`,
      role: 'group-of-sites-viewer',
      status: 'active',
      clientId: site.clientId,
      groupOfSitesId: site.groupOfSitesId,
    })
    .returning({ id: users.id });
  await db.insert(userSites).values({ userId: user.id, siteId: site.id });
  return user.id;
}

async function insertCrew(db: Db, siteId: number) {
  const [crew] = await db
    .insert(crews)
    .values({ siteId, name: unique('Matrix crew') })
    .returning();
  return crew.id;
}

async function insertDeviceToken(db: Db, siteId: number) {
  const token = newToken();
  const [row] = await db
    .insert(deviceTokens)
    .values({ siteId, tokenHash: hashToken(token), label: unique('Matrix gateway') })
    .returning({ id: deviceTokens.id });
  return { id: row.id, token };
}

async function siteRow(db: Db, siteId: number) {
  const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
  return site;
}

/**
 * Seeds one of every object on the site. `crewManagerId` becomes a manager of the crew, so the
 * crew manager's own objects are within its reach.
 */
export async function seedSiteObjects(
  db: Db,
  scope: SeededScope,
  siteId: number,
  crewManagerId?: number,
): Promise<SiteObjects> {
  const site = await siteRow(db, siteId);
  const [building] = await db
    .insert(buildings)
    .values({ siteId, name: unique('Matrix building') })
    .returning({ id: buildings.id });
  const floorId = await insertFloor(db, building.id);
  const zoneId = await insertZone(db, floorId);
  const [network] = await db
    .insert(networks)
    .values({ siteId, name: unique('Matrix mesh') })
    .returning({ id: networks.id });
  const [role] = await db
    .insert(workerRoles)
    .values({ siteId, name: unique('Matrix role') })
    .returning({ id: workerRoles.id });
  const [subcontractor] = await db
    .insert(subcontractors)
    .values({ siteId, name: unique('Matrix sub') })
    .returning({ id: subcontractors.id });
  const crewId = await insertCrew(db, siteId);
  if (crewManagerId !== undefined) await db.insert(crewManagers).values({ crewId, userId: crewManagerId });
  const [workshift] = await db
    .insert(workshifts)
    .values({ siteId, name: unique('Matrix shift'), startTime: '08:00', endTime: '17:00' })
    .returning({ id: workshifts.id });
  const workerId = await insertWorker(db, siteId, crewId, {
    workerRoleId: role.id,
    subcontractorId: subcontractor.id,
  });
  await db
    .insert(workshiftAssignments)
    .values({ workshiftId: workshift.id, workerId, assignedAt: '2020-01-01' });
  const now = new Date();
  const device = (type: 'helmet' | 'anchor', extra: Partial<typeof inventoryItems.$inferInsert> = {}) =>
    db
      .insert(inventoryItems)
      .values({
        siteId,
        networkId: network.id,
        wntInventoryId: unique(`MX-${type}`).replace(/\s/g, ''),
        type,
        floorId,
        lat: 25.1995,
        long: 55.3005,
        isOnline: true,
        isActive: true,
        lastSeen: now,
        ...extra,
      })
      .returning({ id: inventoryItems.id, tag: inventoryItems.wntInventoryId });
  const [helmet] = await device('helmet', { workerId, assignedAt: now });
  await db.insert(helmetAssignments).values({ inventoryItemId: helmet.id, workerId, assignedAt: now });
  const outsiderCrewId = await insertCrew(db, siteId);
  const outsiderWorkerId = await insertWorker(db, siteId, outsiderCrewId, {});
  const [outsiderHelmet] = await device('helmet', { workerId: outsiderWorkerId, assignedAt: now });
  await db
    .insert(helmetAssignments)
    .values({ inventoryItemId: outsiderHelmet.id, workerId: outsiderWorkerId, assignedAt: now });
  const [spareHelmet] = await device('helmet');
  const [anchor] = await device('anchor');
  const deviceToken = await insertDeviceToken(db, siteId);
  const evacuationId = `matrix-${scope}-${Date.now().toString(36)}-${++serial}`;
  await db.insert(evacuationSessions).values({
    id: evacuationId,
    siteId,
    startedAt: new Date(now.getTime() - 3_600_000),
    endedAt: new Date(now.getTime() - 1_800_000),
    floorIds: [floorId],
    zoneIds: [],
    assemblyZoneIds: [zoneId],
    evacuationFloorIds: [floorId],
  });
  const [incident] = await db
    .insert(incidents)
    .values({ siteId, type: 'sos', inventoryItemId: helmet.id, workerId, floorId, ts: now })
    .returning({ id: incidents.id });
  const userId = await insertUser(db, site);
  const electricalRoomId = await insertElectricalRoom(db, building.id);
  const electricalRoomDeviceId = await insertElectricalRoomDevice(db, siteId, electricalRoomId);
  const workPermitId = await insertWorkPermit(db, siteId, floorId, crewId);
  const gridFieldId = await insertGridField(db, floorId);
  const wallId = await insertWall(db, floorId);
  const planningAnchorId = await insertPlanningAnchor(db, floorId);
  const uploadId = await insertDraftUpload(db, siteId);
  const powerBiReportId = await insertPowerBiReport(db, siteId);
  const activityCodeId = await insertActivityCode(db, siteId);
  const activityId = await insertActivity(db, siteId, activityCodeId, crewId);
  const outsiderActivityId = await insertActivity(db, siteId, activityCodeId, outsiderCrewId);
  return {
    scope,
    clientId: site.clientId,
    siteId,
    buildingId: building.id,
    floorId,
    zoneId,
    networkId: network.id,
    workerRoleId: role.id,
    subcontractorId: subcontractor.id,
    crewId,
    workshiftId: workshift.id,
    workerId,
    helmetId: helmet.id,
    helmetTag: helmet.tag,
    outsiderWorkerId,
    outsiderCrewId,
    outsiderHelmetId: outsiderHelmet.id,
    outsiderHelmetTag: outsiderHelmet.tag,
    spareHelmetId: spareHelmet.id,
    anchorId: anchor.id,
    anchorTag: anchor.tag,
    deviceTokenId: deviceToken.id,
    deviceToken: deviceToken.token,
    evacuationId,
    incidentId: incident.id,
    userId,
    electricalRoomId,
    electricalRoomDeviceId,
    workPermitId,
    gridFieldId,
    wallId,
    planningAnchorId,
    uploadId,
    powerBiReportId,
    activityCodeId,
    activityId,
    outsiderActivityId,
    names: await seededNames(db, siteId),
    labels: {
      worker: await nameOf(db, workers, workerId),
      crew: await nameOf(db, crews, crewId),
      zone: await nameOf(db, zones, zoneId),
      workerRole: await nameOf(db, workerRoles, role.id),
      subcontractor: await nameOf(db, subcontractors, subcontractor.id),
      workshift: await nameOf(db, workshifts, workshift.id),
      user: await nameOf(db, users, userId),
      electricalRoom: await nameOf(db, electricalRooms, electricalRoomId),
    },
  };
}

type NamedTable =
  | typeof workers
  | typeof crews
  | typeof zones
  | typeof workerRoles
  | typeof subcontractors
  | typeof workshifts
  | typeof users
  | typeof electricalRooms;

async function nameOf(db: Db, table: NamedTable, id: number): Promise<string> {
  const [row] = await db.select({ name: table.name }).from(table).where(eq(table.id, id));
  return row.name;
}

/** The site's name and the names of the matrix's objects on it (they start with Matrix or MX-). */
async function seededNames(db: Db, siteId: number): Promise<string[]> {
  const result = (await db.execute(sql`
    select name from sites where id = ${siteId}
    union all select name from buildings where site_id = ${siteId} and name like 'Matrix %'
    union all select f.name from floors f join buildings b on b.id = f.building_id
      where b.site_id = ${siteId} and f.name like 'Matrix %'
    union all select z.name from zones z join floors f on f.id = z.floor_id join buildings b on b.id = f.building_id
      where b.site_id = ${siteId} and z.name like 'Matrix %'
    union all select name from networks where site_id = ${siteId} and name like 'Matrix %'
    union all select name from power_bi_reports where site_id = ${siteId} and name like 'Matrix %'
    union all select name from worker_roles where site_id = ${siteId} and name like 'Matrix %'
    union all select name from subcontractors where site_id = ${siteId} and name like 'Matrix %'
    union all select name from crews where site_id = ${siteId} and name like 'Matrix %'
    union all select name from workshifts where site_id = ${siteId} and name like 'Matrix %'
    union all select name from workers where site_id = ${siteId} and name like 'Matrix %'
    union all select wnt_inventory_id from inventory_items where site_id = ${siteId} and wnt_inventory_id like 'MX-%'
    union all select r.name from electrical_rooms r join buildings b on b.id = r.building_id
      where b.site_id = ${siteId} and r.name like 'Matrix %'
    union all select w.name from walls w join floors f on f.id = w.floor_id join buildings b on b.id = f.building_id
      where b.site_id = ${siteId} and w.name like 'Matrix %'
    union all select p.anchor_id from planning_anchors p join floors f on f.id = p.floor_id
      join buildings b on b.id = f.building_id where b.site_id = ${siteId} and p.anchor_id like 'Matrix %'
    union all select u.name from users u join user_sites us on us.user_id = u.id
      where us.site_id = ${siteId} and u.name like 'Matrix user %'`)) as unknown as {
    rows: { name: string }[];
  };
  return result.rows.map((row) => row.name);
}

/** The own site's objects as the fourth column sees them: the worker and crew nobody manages. */
export async function otherCrewObjects(db: Db, own: SiteObjects): Promise<SiteObjects> {
  const worker = await nameOf(db, workers, own.outsiderWorkerId);
  const crew = await nameOf(db, crews, own.outsiderCrewId);
  return {
    ...own,
    scope: OTHER_CREW,
    workerId: own.outsiderWorkerId,
    crewId: own.outsiderCrewId,
    activityId: own.outsiderActivityId,
    names: [worker, crew],
    labels: { ...own.labels, worker, crew },
  };
}

/** The objects with a fresh one of `kind` in place of the seeded one. */
export async function withFresh(db: Db, objects: SiteObjects, kind: FreshKind): Promise<SiteObjects> {
  switch (kind) {
    case 'floor':
      return { ...objects, floorId: await insertFloor(db, objects.buildingId) };
    case 'zone':
      return { ...objects, zoneId: await insertZone(db, objects.floorId) };
    case 'worker':
      return { ...objects, workerId: await insertWorker(db, objects.siteId, objects.crewId, {}) };
    case 'user':
      return { ...objects, userId: await insertUser(db, await siteRow(db, objects.siteId)) };
    case 'crew':
      return { ...objects, crewId: await insertCrew(db, objects.siteId) };
    case 'network': {
      const [network] = await db
        .insert(networks)
        .values({ siteId: objects.siteId, name: unique('Matrix mesh') })
        .returning({ id: networks.id });
      return { ...objects, networkId: network.id };
    }
    case 'deviceToken':
      return { ...objects, deviceTokenId: (await insertDeviceToken(db, objects.siteId)).id };
    case 'electricalRoom':
      return { ...objects, electricalRoomId: await insertElectricalRoom(db, objects.buildingId) };
    case 'electricalRoomDevice':
      return {
        ...objects,
        electricalRoomDeviceId: await insertElectricalRoomDevice(
          db,
          objects.siteId,
          objects.electricalRoomId,
        ),
      };
    case 'wall':
      return { ...objects, wallId: await insertWall(db, objects.floorId) };
    case 'planningAnchor':
      return { ...objects, planningAnchorId: await insertPlanningAnchor(db, objects.floorId) };
    case 'upload':
      return { ...objects, uploadId: await insertDraftUpload(db, objects.siteId) };
    case 'workPermit':
      return {
        ...objects,
        workPermitId: await insertWorkPermit(db, objects.siteId, objects.floorId, objects.crewId),
      };
  }
}

async function insertActivityCode(db: Db, siteId: number): Promise<number> {
  const [code] = await db
    .insert(activityCodes)
    .values({ siteId, code: unique('MX-code'), name: 'Matrix code', uom: 'm', targetRate: '2' })
    .returning({ id: activityCodes.id });
  return code.id;
}

/** An activity of the crew, under review (a crew manager of the crew reaches it). */
async function insertActivity(
  db: Db,
  siteId: number,
  activityCodeId: number,
  crewId: number,
): Promise<number> {
  const [activity] = await db
    .insert(activities)
    .values({
      siteId,
      activityCodeId,
      crewId,
      name: unique('Matrix activity'),
      day: '2026-03-10',
      plannedQuantity: '1',
      plannedHours: '1',
      status: 'in_review',
    })
    .returning({ id: activities.id });
  return activity.id;
}

async function insertPowerBiReport(db: Db, siteId: number): Promise<number> {
  const [report] = await db
    .insert(powerBiReports)
    .values({
      siteId,
      name: unique('Matrix report'),
      embedUrl: 'https://app.powerbi.com/reportEmbed?reportId=matrix',
    })
    .returning({ id: powerBiReports.id });
  return report.id;
}

/** A draft Excel upload of the site with no rows (an empty draft commits and cancels). */
async function insertDraftUpload(db: Db, siteId: number): Promise<string> {
  const id = randomUUID();
  await db.insert(bulkUploads).values({
    id,
    siteId,
    kind: 'workers',
    fileName: 'matrix.xlsx',
    contentHash: id,
    status: 'draft',
  });
  return id;
}

/** A site of the client in a group of its own, so the demo group's members do not see it. */
export async function seedSiteOutsideGroup(db: Db, clientId: number): Promise<number> {
  const [group] = await db
    .insert(groupsOfSites)
    .values({ clientId, name: unique('Annex group') })
    .returning({ id: groupsOfSites.id });
  const [site] = await db
    .insert(sites)
    .values({ clientId, groupOfSitesId: group.id, name: unique('Annex'), timezone: 'UTC' })
    .returning({ id: sites.id });
  return site.id;
}
