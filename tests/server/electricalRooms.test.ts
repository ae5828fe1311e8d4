import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePositionPartitions } from '../../server/analytics/positionPartitions';
import {
  buildings,
  electricalRoomDevices,
  electricalRooms,
  floors,
  inventoryItems,
  networks,
  nodeDiagnostics,
  sites,
} from '../../server/db/schema';
import { ELECTRICAL_ROOM_STEPS } from '../../src/domain/electricalRoomChecklist';
import type { Role } from '../../src/domain/roles';
import type {
  ElectricalRoom,
  ElectricalRoomGateway,
  ElectricalRoomSink,
  SiteElectricalRooms,
} from '../../src/domain/schemas/electricalRooms';
import { startDemoSiteSuite } from './helpers/demoSiteSuite';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

/**
 * Electrical RM installation (issue 19): the demo site's rooms as seeded, statuses read from node
 * diagnostics written at known ages, rooms added, edited and deleted, devices added and removed,
 * checklist steps ticked with who and when, and every refusal: validation, roles, tenancy.
 */

let t: TestApp;
let other: OtherTenant;
let siteId: number;
let tokens: Record<Role, string>;
let north: { id: number; groundFloorId: number; upperFloorId: number };
let southFloorId: number;
let foreignRoomId: number;
let spareSinkId: number;
let anchorId: number;
let spareNetworkId: number;

const ALLOWED = ['super-admin', 'client-admin', 'group-of-sites-admin', 'site-engineer'] as const;
const REFUSED = ['group-of-sites-viewer', 'crew-manager', 'safety-demo'] as const;

const as = (role: Role) => ({
  get: (url: string) => t.call(tokens[role], { method: 'GET', url }),
  post: (url: string, payload: unknown) =>
    t.call(tokens[role], { method: 'POST', url, payload: payload as object }),
  put: (url: string, payload: unknown) =>
    t.call(tokens[role], { method: 'PUT', url, payload: payload as object }),
  del: (url: string) => t.call(tokens[role], { method: 'DELETE', url }),
  patch: (url: string, payload: unknown) =>
    t.call(tokens[role], { method: 'PATCH', url, payload: payload as object }),
});
const admin = () => as('group-of-sites-admin');

async function siteRooms(role: Role = 'group-of-sites-admin'): Promise<SiteElectricalRooms> {
  const response = await as(role).get(`/api/sites/${siteId}/electrical-rooms`);
  expect(response.statusCode).toBe(200);
  return response.json.data as SiteElectricalRooms;
}

const roomNamed = (data: SiteElectricalRooms, name: string) =>
  data.buildings.flatMap((b) => b.rooms).find((room) => room.name === name) as ElectricalRoom;

async function createRoom(name: string, floorId?: number | null): Promise<ElectricalRoom> {
  const response = await admin().post(`/api/buildings/${north.id}/electrical-rooms`, {
    name,
    ...(floorId === undefined ? {} : { floor_id: floorId }),
  });
  expect(response.statusCode, JSON.stringify(response.json)).toBe(200);
  return response.json.data as ElectricalRoom;
}

async function sinkIdOf(tag: string): Promise<number> {
  const [row] = await t.db
    .select({ id: inventoryItems.id })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.siteId, siteId), eq(inventoryItems.wntInventoryId, tag)));
  return row.id;
}

beforeAll(async () => {
  ({ t, other, siteId, tokens } = await startDemoSiteSuite([...ALLOWED, ...REFUSED]));
  const [northRow] = await t.db.select().from(buildings).where(eq(buildings.name, 'North Block'));
  const northFloors = await t.db
    .select()
    .from(floors)
    .where(eq(floors.buildingId, northRow.id))
    .orderBy(floors.altitude);
  north = { id: northRow.id, groundFloorId: northFloors[0].id, upperFloorId: northFloors[1].id };
  const [southRow] = await t.db.select().from(buildings).where(eq(buildings.name, 'South Block'));
  [{ id: southFloorId }] = await t.db.select().from(floors).where(eq(floors.buildingId, southRow.id));
  const [foreignRoom] = await t.db
    .insert(electricalRooms)
    .values({ buildingId: other.buildingId, name: 'Depot switch room' })
    .returning();
  foreignRoomId = foreignRoom.id;
  const [spare] = await t.db
    .insert(inventoryItems)
    .values({ siteId, wntInventoryId: 'SNK-SPARE', type: 'sink' })
    .returning();
  spareSinkId = spare.id;
  const [anchor] = await t.db
    .select({ id: inventoryItems.id })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.siteId, siteId), eq(inventoryItems.type, 'anchor')))
    .limit(1);
  anchorId = anchor.id;
  [{ id: spareNetworkId }] = await t.db.select().from(networks).where(eq(networks.name, 'Spare gateway kit'));
});

afterAll(() => t.close());

describe('GET /api/sites/{id}/electrical-rooms', () => {
  it('lists every building with its seeded room, its sinks and network, and the steps done', async () => {
    const data = await siteRooms();
    expect(data.site_id).toBe(siteId);
    expect(data.network_silence_seconds).toBe(30);
    expect(data.buildings.map((b) => b.name)).toEqual(['North Block', 'South Block']);
    expect(data.buildings[0].floors.map((f) => f.name)).toEqual(['Level 2', 'Level 1', 'Ground Floor']);
    const northRoom = data.buildings[0].rooms[0];
    expect(northRoom.name).toBe('North Block electrical room');
    expect(northRoom.floor_name).toBe('Ground Floor');
    expect(northRoom.devices.map((d) => [d.kind, d.name])).toEqual([
      ['gateway', 'Tower A mesh'],
      ['sink', 'SNK-0001'],
      ['sink', 'SNK-0002'],
      ['sink', 'SNK-0003'],
    ]);
    expect(northRoom.steps.map((s) => s.step)).toEqual([...ELECTRICAL_ROOM_STEPS]);
    const done = northRoom.steps.filter((s) => s.done);
    expect(done).toHaveLength(5);
    expect(done.every((s) => s.completed_by?.name === 'Demo Site Engineer' && s.completed_at !== null)).toBe(
      true,
    );
    expect(northRoom.steps[5]).toEqual({
      step: 'sinksMounted',
      done: false,
      completed_by: null,
      completed_at: null,
    });
    const southRoom = data.buildings[1].rooms[0];
    expect(southRoom.devices.map((d) => d.name)).toEqual([
      'Tower A south mesh',
      'SNK-0004',
      'SNK-0005',
      'SNK-0006',
    ]);
    expect(southRoom.steps.filter((s) => s.done)).toHaveLength(2);
    // Every demo sink and network is in a room; the sink added by the test is free.
    expect(data.available).toEqual({ sinks: [{ id: spareSinkId, name: 'SNK-SPARE' }], networks: [] });
  });

  it("reads each sink's power and connection and each gateway's connection from the node diagnostics", async () => {
    const now = Date.now();
    const rows = [
      { tag: 'SNK-0001', ageMs: 5_000, volts: 5.02 },
      { tag: 'SNK-0002', ageMs: 5 * 60_000, volts: 4.31 },
      { tag: 'SNK-0004', ageMs: 20 * 60_000, volts: 5.0 },
    ];
    await ensurePositionPartitions(
      t.db,
      rows.map((r) => now - r.ageMs),
      'node_diagnostics',
    );
    for (const row of rows) {
      const id = await sinkIdOf(row.tag);
      await t.db.insert(nodeDiagnostics).values({
        siteId,
        inventoryItemId: id,
        nodeId: row.tag,
        type: 'sink',
        batteryVoltage: row.volts,
        bufferUsage: 10,
        linkQuality: 80,
        ts: new Date(now - row.ageMs),
      });
    }
    const data = await siteRooms('site-engineer');
    const northRoom = roomNamed(data, 'North Block electrical room');
    const southRoom = roomNamed(data, 'South Block electrical room');
    const sink = (room: ElectricalRoom, name: string) =>
      room.devices.find((d) => d.name === name) as ElectricalRoomSink;
    expect(sink(northRoom, 'SNK-0001')).toMatchObject({
      power: 'mains',
      connection: 'connected',
      supply_voltage: 5.02,
    });
    expect(sink(northRoom, 'SNK-0002')).toMatchObject({
      power: 'low',
      connection: 'stale',
      supply_voltage: 4.31,
    });
    expect(sink(northRoom, 'SNK-0003')).toMatchObject({
      power: 'unknown',
      connection: 'silent',
      last_report_at: null,
    });
    // Silent for 20 minutes: its old voltage says nothing of the supply now.
    expect(sink(southRoom, 'SNK-0004')).toMatchObject({
      power: 'unknown',
      connection: 'silent',
      supply_voltage: 5,
    });
    const gateway = (room: ElectricalRoom) =>
      room.devices.find((d) => d.kind === 'gateway') as ElectricalRoomGateway;
    // SNK-0001 of Tower A mesh spoke 5 s ago (the demo's unapproved anchors of the same mesh may
    // have spoken since); the south mesh's latest is 20 minutes old.
    expect(gateway(northRoom)).toMatchObject({ name: 'Tower A mesh', connection: 'connected' });
    const northHeard = Date.parse(gateway(northRoom).last_report_at ?? '');
    expect(northHeard).toBeGreaterThanOrEqual(now - 5_000);
    expect(northHeard).toBeLessThanOrEqual(Date.now());
    expect(gateway(southRoom)).toMatchObject({ name: 'Tower A south mesh', connection: 'disconnected' });
  });

  it('answers 404 for another client’s site and 403 to the roles the access table keeps out', async () => {
    const foreign = await admin().get(`/api/sites/${other.siteId}/electrical-rooms`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json.message).toBe('Site not found');
    for (const role of REFUSED) {
      const response = await as(role).get(`/api/sites/${siteId}/electrical-rooms`);
      expect(response.statusCode, role).toBe(403);
    }
    for (const role of ALLOWED) {
      const response = await as(role).get(`/api/sites/${siteId}/electrical-rooms`);
      expect(response.statusCode, role).toBe(200);
    }
  });
});

describe('rooms: add, edit, delete', () => {
  it('adds a room on a floor of the building, and refuses a duplicate name in any case', async () => {
    const created = await admin().post(`/api/buildings/${north.id}/electrical-rooms`, {
      name: '  LV room 2 ',
      floor_id: north.upperFloorId,
    });
    expect(created.statusCode).toBe(200);
    expect(created.json.message).toBe('Electrical room is created successfully');
    const room = created.json.data as ElectricalRoom;
    expect(room).toMatchObject({
      name: 'LV room 2',
      floor_id: north.upperFloorId,
      floor_name: 'Level 1',
      devices: [],
    });
    expect(room.steps.every((s) => !s.done)).toBe(true);
    const duplicate = await admin().post(`/api/buildings/${north.id}/electrical-rooms`, {
      name: 'lv ROOM 2',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json.message).toBe('Electrical room name already exists!');
  });

  it('answers bad bodies with 422 and the spec’s words', async () => {
    const cases: [unknown, Record<string, string>][] = [
      [{}, { name: 'Name is required' }],
      [{ name: '' }, { name: 'Name is required' }],
      [{ name: '   ' }, { name: 'Name is required' }],
      [{ name: 'x'.repeat(101) }, { name: 'Name accepts a maximum of 100 characters' }],
      [{ name: 'Room', floor_id: 0 }, { floor_id: 'Floor id is invalid' }],
      [{ name: 'Room', floor_id: 'a' }, { floor_id: 'Floor id is invalid' }],
      [
        { name: 'Room', floor_id: southFloorId },
        { floor_id: "The floor must be one of the room's building" },
      ],
    ];
    for (const [payload, errors] of cases) {
      const response = await admin().post(`/api/buildings/${north.id}/electrical-rooms`, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json.errors, JSON.stringify(payload)).toEqual(errors);
    }
    const foreignFloor = await admin().post(`/api/buildings/${north.id}/electrical-rooms`, {
      name: 'Room',
      floor_id: other.floorId,
    });
    expect(foreignFloor.statusCode).toBe(404);
    expect(foreignFloor.json.message).toBe('Floor not found');
  });

  it('renames a room, moves it to another floor and off any floor', async () => {
    const room = await createRoom('Edit me', north.groundFloorId);
    const renamed = await admin().post(`/api/electrical-rooms/${room.id}`, { name: 'Edited' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json.message).toBe('Electrical room is updated successfully');
    expect(renamed.json.data).toMatchObject({ name: 'Edited', floor_id: north.groundFloorId });
    const moved = await admin().post(`/api/electrical-rooms/${room.id}`, { floor_id: north.upperFloorId });
    expect(moved.json.data).toMatchObject({
      name: 'Edited',
      floor_id: north.upperFloorId,
      floor_name: 'Level 1',
    });
    const off = await admin().post(`/api/electrical-rooms/${room.id}`, { floor_id: null });
    expect(off.json.data).toMatchObject({ floor_id: null, floor_name: null });
    const taken = await admin().post(`/api/electrical-rooms/${room.id}`, {
      name: 'north block ELECTRICAL room',
    });
    expect(taken.statusCode).toBe(409);
    const blank = await admin().post(`/api/electrical-rooms/${room.id}`, { name: ' ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json.errors).toEqual({ name: 'Name is required' });
    const otherBuilding = await admin().post(`/api/electrical-rooms/${room.id}`, { floor_id: southFloorId });
    expect(otherBuilding.statusCode).toBe(422);
  });

  it('deletes a room with its devices and steps, which frees its sinks', async () => {
    const room = await createRoom('Short-lived');
    await admin().post(`/api/electrical-rooms/${room.id}/devices`, { inventory_id: spareSinkId });
    await admin().put(`/api/electrical-rooms/${room.id}/steps/ups`, { done: true });
    expect((await siteRooms()).available.sinks).toEqual([]);
    const deleted = await admin().del(`/api/electrical-rooms/${room.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json.message).toBe('Electrical room is deleted successfully');
    const data = await siteRooms();
    expect(roomNamed(data, 'Short-lived')).toBeUndefined();
    expect(data.available.sinks).toEqual([{ id: spareSinkId, name: 'SNK-SPARE' }]);
    const again = await admin().del(`/api/electrical-rooms/${room.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json.message).toBe('Electrical room not found');
  });
});

describe('devices', () => {
  it('adds a sink and a gateway of the site, and removes them', async () => {
    const room = await createRoom('Device room');
    const [network] = await t.db.insert(networks).values({ siteId, name: 'Device room mesh' }).returning();
    const sink = await admin().post(`/api/electrical-rooms/${room.id}/devices`, {
      inventory_id: spareSinkId,
    });
    expect(sink.statusCode).toBe(200);
    expect(sink.json.message).toBe('Device is added to the electrical room');
    const gateway = await admin().post(`/api/electrical-rooms/${room.id}/devices`, {
      network_id: network.id,
    });
    const devices = (gateway.json.data as ElectricalRoom).devices;
    expect(devices.map((d) => [d.kind, d.name, d.connection])).toEqual([
      ['gateway', 'Device room mesh', 'disconnected'],
      ['sink', 'SNK-SPARE', 'silent'],
    ]);
    expect((await siteRooms()).available).toEqual({ sinks: [], networks: [] });
    const twice = await admin().post(`/api/electrical-rooms/${room.id}/devices`, {
      inventory_id: spareSinkId,
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json.message).toBe('This device is already installed in an electrical room');
    const elsewhere = await createRoom('Second device room');
    const stolen = await admin().post(`/api/electrical-rooms/${elsewhere.id}/devices`, {
      network_id: network.id,
    });
    expect(stolen.statusCode).toBe(409);

    const removed = await admin().del(`/api/electrical-rooms/${room.id}/devices/${devices[1].id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json.message).toBe('Device is removed from the electrical room');
    expect((removed.json.data as ElectricalRoom).devices.map((d) => d.name)).toEqual(['Device room mesh']);
    const notHere = await admin().del(`/api/electrical-rooms/${elsewhere.id}/devices/${devices[0].id}`);
    expect(notHere.statusCode).toBe(404);
    expect(notHere.json.message).toBe('Device not found');
    await admin().del(`/api/electrical-rooms/${room.id}`);
    await admin().del(`/api/electrical-rooms/${elsewhere.id}`);
  });

  it('refuses what is not one sink or gateway of the room’s site', async () => {
    const room = await createRoom('Strict room');
    const url = `/api/electrical-rooms/${room.id}/devices`;
    const unprocessable: [unknown, Record<string, string>][] = [
      [{}, { inventory_id: 'Choose a sink or a gateway' }],
      [
        { inventory_id: spareSinkId, network_id: spareNetworkId },
        { network_id: 'Choose a sink or a gateway, not both' },
      ],
      [{ inventory_id: anchorId }, { inventory_id: 'Only a sink can be installed in an electrical room' }],
      [{ network_id: spareNetworkId }, { network_id: 'Assign the network to the site first' }],
      [{ inventory_id: 'SNK-0001' }, { inventory_id: 'Inventory id is invalid' }],
      [{ network_id: -1 }, { network_id: 'Network id is invalid' }],
      [{ sink: 1 }, { inventory_id: 'Choose a sink or a gateway' }],
    ];
    for (const [payload, errors] of unprocessable) {
      const response = await admin().post(url, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json.errors, JSON.stringify(payload)).toEqual(errors);
    }
    const foreignNetwork = await admin().post(url, { network_id: other.networkId });
    expect(foreignNetwork.statusCode).toBe(404);
    expect(foreignNetwork.json.message).toBe('Network not found');
    const [foreignSink] = await t.db
      .insert(inventoryItems)
      .values({ siteId: other.siteId, wntInventoryId: 'DEPOT-SNK', type: 'sink' })
      .returning();
    const foreignItem = await admin().post(url, { inventory_id: foreignSink.id });
    expect(foreignItem.statusCode).toBe(404);
    expect(foreignItem.json.message).toBe('Inventory item not found');
    const rows = await t.db
      .select()
      .from(electricalRoomDevices)
      .where(eq(electricalRoomDevices.roomId, room.id));
    expect(rows).toEqual([]);
    await admin().del(`/api/electrical-rooms/${room.id}`);
  });
});

describe('checklist steps', () => {
  it('records who ticked a step and when, keeps the first on a second tick, and clears it when unticked', async () => {
    const room = await createRoom('Checklist room');
    const url = `/api/electrical-rooms/${room.id}/steps/uplink`;
    const before = Date.now();
    const ticked = await as('site-engineer').put(url, { done: true });
    expect(ticked.statusCode).toBe(200);
    expect(ticked.json.message).toBe('Step is marked done');
    expect(ticked.json.data).toMatchObject({
      step: 'uplink',
      done: true,
      completed_by: { name: 'Demo Site Engineer' },
    });
    const at = Date.parse(ticked.json.data.completed_at);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);

    const again = await admin().put(url, { done: true });
    expect(again.json.data).toEqual(ticked.json.data);
    const shown = roomNamed(await siteRooms(), 'Checklist room').steps.find((s) => s.step === 'uplink');
    expect(shown).toEqual(ticked.json.data);

    const unticked = await admin().put(url, { done: false });
    expect(unticked.statusCode).toBe(200);
    expect(unticked.json.message).toBe('Step is marked not done');
    expect(unticked.json.data).toEqual({
      step: 'uplink',
      done: false,
      completed_by: null,
      completed_at: null,
    });
    const retick = await admin().put(url, { done: true });
    expect(retick.json.data.completed_by.name).toBe('Demo Site Admin');
    await admin().del(`/api/electrical-rooms/${room.id}`);
  });

  it('answers an unknown step or a bad body with 422', async () => {
    const room = await createRoom('Step checks');
    const unknown = await admin().put(`/api/electrical-rooms/${room.id}/steps/paint`, { done: true });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json.errors).toEqual({ step: 'Step is invalid' });
    for (const [payload, errors] of [
      [{}, { done: 'Done is required' }],
      [{ done: 'yes' }, { done: 'Done is invalid' }],
      [{ done: 1 }, { done: 'Done is invalid' }],
    ] as const) {
      const response = await admin().put(`/api/electrical-rooms/${room.id}/steps/ups`, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json.errors).toEqual(errors);
    }
    await admin().del(`/api/electrical-rooms/${room.id}`);
  });
});

describe('roles and tenancy of the writes', () => {
  it('refuses every write to the roles the access table keeps out, and changes nothing', async () => {
    const room = await createRoom('Guarded room');
    for (const role of REFUSED) {
      const calls = [
        as(role).post(`/api/buildings/${north.id}/electrical-rooms`, { name: `By ${role}` }),
        as(role).post(`/api/electrical-rooms/${room.id}`, { name: `By ${role}` }),
        as(role).post(`/api/electrical-rooms/${room.id}/devices`, { inventory_id: spareSinkId }),
        as(role).put(`/api/electrical-rooms/${room.id}/steps/ups`, { done: true }),
        as(role).del(`/api/electrical-rooms/${room.id}/devices/1`),
        as(role).del(`/api/electrical-rooms/${room.id}`),
      ];
      for (const response of await Promise.all(calls)) {
        expect(response.statusCode, `${role} ${response.json.message}`).toBe(403);
        expect(response.json.message).toBe('Not Authorized');
      }
    }
    const after = roomNamed(await siteRooms(), 'Guarded room');
    expect(after).toMatchObject({ name: 'Guarded room', devices: [] });
    expect(after.steps.some((s) => s.done)).toBe(false);
    await admin().del(`/api/electrical-rooms/${room.id}`);
  });

  it('lets a site engineer add, fill and delete a room', async () => {
    const engineer = as('site-engineer');
    const created = await engineer.post(`/api/buildings/${north.id}/electrical-rooms`, {
      name: 'Engineer room',
    });
    expect(created.statusCode).toBe(200);
    const id = created.json.data.id;
    expect(
      (await engineer.post(`/api/electrical-rooms/${id}/devices`, { inventory_id: spareSinkId })).statusCode,
    ).toBe(200);
    expect((await engineer.del(`/api/electrical-rooms/${id}`)).statusCode).toBe(200);
  });

  it('answers 404 for another client’s building and room, whoever asks short of a super-admin', async () => {
    const building = await admin().post(`/api/buildings/${other.buildingId}/electrical-rooms`, {
      name: 'Sneaky',
    });
    expect(building.statusCode).toBe(404);
    expect(building.json.message).toBe('Building not found');
    for (const role of ['client-admin', 'group-of-sites-admin', 'site-engineer'] as const) {
      const calls = [
        as(role).post(`/api/electrical-rooms/${foreignRoomId}`, { name: 'Renamed' }),
        as(role).post(`/api/electrical-rooms/${foreignRoomId}/devices`, { network_id: other.networkId }),
        as(role).put(`/api/electrical-rooms/${foreignRoomId}/steps/ups`, { done: true }),
        as(role).put(`/api/electrical-rooms/${foreignRoomId}/steps/paint`, { done: true }),
        as(role).del(`/api/electrical-rooms/${foreignRoomId}/devices/1`),
        as(role).del(`/api/electrical-rooms/${foreignRoomId}`),
      ];
      for (const response of await Promise.all(calls)) {
        expect(response.statusCode, role).toBe(404);
        expect(response.json.message).toBe('Electrical room not found');
      }
    }
    const [still] = await t.db.select().from(electricalRooms).where(eq(electricalRooms.id, foreignRoomId));
    expect(still.name).toBe('Depot switch room');
    // The other client's own admin sees its room and not the demo's.
    const otherAdmin = await t.login(other.email('client-admin'));
    const own = await t.call(otherAdmin, {
      method: 'GET',
      url: `/api/sites/${other.siteId}/electrical-rooms`,
    });
    expect(own.json.data.buildings[0].rooms.map((r: ElectricalRoom) => r.name)).toEqual([
      'Depot switch room',
    ]);
    const demo = await t.call(otherAdmin, { method: 'GET', url: `/api/sites/${siteId}/electrical-rooms` });
    expect(demo.statusCode).toBe(404);
    // A super-admin reaches every client's room.
    const superAdmin = await as('super-admin').put(`/api/electrical-rooms/${foreignRoomId}/steps/ups`, {
      done: true,
    });
    expect(superAdmin.statusCode).toBe(200);
  });
});

describe('networks assigned to sites (PATCH /api/networks/{id})', () => {
  it('takes a gateway out of its room when its network moves to another site or is released', async () => {
    const [demoSite] = await t.db.select().from(sites).where(eq(sites.id, siteId));
    const [annex] = await t.db
      .insert(sites)
      .values({ clientId: demoSite.clientId, name: 'Annex site', timezone: 'UTC' })
      .returning();
    const room = await createRoom('Gateway room');
    const gatewaysOf = async () =>
      roomNamed(await siteRooms(), 'Gateway room').devices.map((device) => device.name);
    for (const target of [annex.id, null]) {
      const [network] = await t.db
        .insert(networks)
        .values({ siteId, name: `Roaming mesh ${target}` })
        .returning();
      await admin().post(`/api/electrical-rooms/${room.id}/devices`, { network_id: network.id });
      expect(await gatewaysOf()).toEqual([network.name]);
      const moved = await as('client-admin').patch(`/api/networks/${network.id}`, { site_id: target });
      expect(moved.statusCode).toBe(200);
      expect(await gatewaysOf()).toEqual([]);
    }
    // Assigned to the room's own site again (no move): it stays.
    const [stay] = await t.db.insert(networks).values({ siteId, name: 'Staying mesh' }).returning();
    await admin().post(`/api/electrical-rooms/${room.id}/devices`, { network_id: stay.id });
    expect((await admin().patch(`/api/networks/${stay.id}`, { site_id: siteId })).statusCode).toBe(200);
    expect(await gatewaysOf()).toEqual(['Staying mesh']);
  });
});
