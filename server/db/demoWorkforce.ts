import type { FloorCorners, ImageProperties } from '../../src/domain/floor';
import { floorTransform, imagePoint } from '../../src/domain/geo';
import { pick, type Random, seededRandom } from '../../src/domain/seededRandom';
import { localTime } from '../../src/domain/workshiftClock';
import type { Db } from './database';
import {
  crewAssignments,
  crewManagers,
  crews,
  helmetAssignments,
  inventoryItems,
  subcontractors,
  workerRoles,
  workers,
  workshiftAssignments,
  workshifts,
} from './schema';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export const DEMO_WORKER_COUNT = 200;

/** Roles with the helmet colour the trade wears and how common it is on the site. */
const ROLES = [
  { name: 'Carpenter', color: '#FFD600', weight: 5 },
  { name: 'Steel Fixer', color: '#FB8C00', weight: 5 },
  { name: 'Mason', color: '#FFD600', weight: 4 },
  { name: 'Electrician', color: '#1E88E5', weight: 3 },
  { name: 'Plumber', color: '#FAFAFA', weight: 2 },
  { name: 'Safety Officer', color: '#43A047', weight: 1 },
] as const;

const SUBCONTRACTORS = [
  'Gulf Steel Works',
  'Al Noor Electrical',
  'Crescent MEP Services',
  'Skyline Scaffolding',
  'Desert Rose Concrete',
];

const CREWS = [
  'Formwork A',
  'Formwork B',
  'Rebar',
  'Concrete pour',
  'MEP first fix',
  'Finishes',
  'Night works',
  'Control room',
];
/** The crews the demo crew manager looks after (by index in CREWS). */
const MANAGED_CREWS = [0, 1];

/**
 * Day and night shifts with breaks and Friday off, and a control room around the clock (an end
 * equal to the start, see src/domain/workshiftClock.ts), so some helmets are live at any hour.
 */
const SHIFTS = [
  {
    name: 'Day shift',
    category: 'Day',
    startTime: '06:00',
    endTime: '18:00',
    breaks: [
      { start: '10:00', end: '10:15' },
      { start: '13:00', end: '14:00' },
    ],
    nonWorkingDays: [5],
  },
  {
    name: 'Night shift',
    category: 'Night',
    startTime: '18:00',
    endTime: '06:00',
    breaks: [
      { start: '22:00', end: '22:15' },
      { start: '01:00', end: '01:30' },
    ],
    nonWorkingDays: [5],
  },
  {
    name: 'Control room',
    category: '24 hours',
    startTime: '07:00',
    endTime: '07:00',
    breaks: [],
    nonWorkingDays: [],
  },
];

const FIRST_NAMES = (
  'Ahmed, Mohammed, Omar, Yousef, Khalid, Hassan, Tariq, Faisal, Rashid, Samir, Rajesh, Suresh, ' +
  'Anil, Vikram, Arjun, Manoj, Deepak, Ravi, Sanjay, Prakash, Imran, Bilal, Usman, Asif, Kamran, ' +
  'Jose, Mark, Rommel, Jericho, Paolo, Ramesh, Bikash, Santosh, Dinesh, Nuwan, Kasun, Ibrahim, ' +
  'Mustafa, Daniel, Liam, Grace, Aisha, Fatima, Maria, Priya, Sarah, Noor, Leila'
).split(', ');
const LAST_NAMES = (
  'Al Mansoori, Haddad, Khan, Qureshi, Siddiqui, Nair, Menon, Pillai, Sharma, Patel, Reddy, Iyer, ' +
  'Das, Thapa, Gurung, Shrestha, Perera, Fernando, Silva, Santos, Reyes, Cruz, Bautista, Garcia, ' +
  'Mendoza, Hussain, Malik, Chaudhry, Rahman, Ali, Saleh, Nasser, Farouk, Okafor, Mensah, Murphy, ' +
  "O'Brien, Kowalski, Novak, Ivanov"
).split(', ');

/** Anchors on a 3 × 3 grid of the blueprint, near its corners, edges and centre; one sink. */
const ANCHOR_GRID = [0.04, 0.5, 0.96];
const SINK_AT = { x: 0.3, y: 0.5 };

export interface DemoFloor {
  id: number;
  buildingIndex: number;
  corners: FloorCorners;
  image: ImageProperties;
}

export interface DemoWorkforceInput {
  siteId: number;
  timezone: string;
  /** One network per building, in building order. */
  networkIds: readonly number[];
  floors: readonly DemoFloor[];
  crewManagerUserId: number;
  now: Date;
}

const pad = (n: number, width = 4) => String(n).padStart(width, '0');

/** YYYY-MM-DD, `days` before the site's today. */
function daysBefore(today: string, days: number): string {
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

function weightedRole(random: Random): number {
  const total = ROLES.reduce((sum, role) => sum + role.weight, 0);
  let at = random() * total;
  for (const [index, role] of ROLES.entries()) {
    at -= role.weight;
    if (at < 0) return index;
  }
  return ROLES.length - 1;
}

function uniqueNames(random: Random, count: number): string[] {
  const names = new Set<string>();
  while (names.size < count) names.add(`${pick(random, FIRST_NAMES)} ${pick(random, LAST_NAMES)}`);
  return [...names];
}

/** The shift of the i-th worker: 150 on days, 40 on nights, 10 in the control room. */
function shiftIndexOf(worker: number): number {
  if (worker < 150) return 0;
  return worker < 190 ? 1 : 2;
}

/** The crew of the i-th worker: night and control-room workers have their own crews. */
function crewIndexOf(worker: number): number {
  if (worker < 150) return worker % 6;
  return worker < 190 ? 6 : 7;
}

/**
 * DESIGN §6's workforce and devices for the demo site: workers wearing helmets (offline, no
 * position yet), roles, subcontractors, crews with their manager, work shifts, and approved
 * anchors plus a sink on every floor. Deterministic (a seeded generator), one insert per table.
 */
export async function seedDemoWorkforce(tx: Tx, input: DemoWorkforceInput): Promise<void> {
  const random = seededRandom(20_250_301);
  const { siteId } = input;
  const today = localTime(input.now, input.timezone).date;

  const roleRows = await tx
    .insert(workerRoles)
    .values(ROLES.map((role) => ({ siteId, name: role.name })))
    .returning({ id: workerRoles.id, name: workerRoles.name });
  const roleIds = ROLES.map((role) => roleRows.find((row) => row.name === role.name)!.id);
  const subcontractorRows = await tx
    .insert(subcontractors)
    .values(SUBCONTRACTORS.map((name) => ({ siteId, name })))
    .returning({ id: subcontractors.id });
  const crewRows = await tx
    .insert(crews)
    .values(CREWS.map((name) => ({ siteId, name })))
    .returning({ id: crews.id, name: crews.name });
  const crewIds = CREWS.map((name) => crewRows.find((row) => row.name === name)!.id);
  const shiftRows = await tx
    .insert(workshifts)
    .values(SHIFTS.map((shift) => ({ siteId, ...shift })))
    .returning({ id: workshifts.id, name: workshifts.name });
  const shiftIds = SHIFTS.map((shift) => shiftRows.find((row) => row.name === shift.name)!.id);
  await tx
    .insert(crewManagers)
    .values(MANAGED_CREWS.map((index) => ({ crewId: crewIds[index], userId: input.crewManagerUserId })));

  const names = uniqueNames(random, DEMO_WORKER_COUNT);
  const people = names.map((name, index) => {
    const role = weightedRole(random);
    return {
      siteId,
      name,
      workerTagId: `EMP-${pad(1001 + index)}`,
      // Digits only, as the worker form requires (src/domain/workerValidation.ts).
      contactNumber: `9715${Math.floor(random() * 10)}${pad(Math.floor(random() * 1000), 3)}${pad(Math.floor(random() * 10_000))}`,
      helmetColor: ROLES[role].color,
      workerRoleId: roleIds[role],
      subcontractorId: pick(random, subcontractorRows).id,
    };
  });
  const workerRows = await tx
    .insert(workers)
    .values(people)
    .returning({ id: workers.id, tag: workers.workerTagId });
  const workerIdByTag = new Map(workerRows.map((row) => [row.tag, row.id]));
  const workerIds = people.map((person) => workerIdByTag.get(person.workerTagId)!);

  const joined = daysBefore(today, 30);
  await tx.insert(crewAssignments).values(
    workerIds.map((workerId, index) => ({
      workerId,
      crewId: crewIds[crewIndexOf(index)],
      assignedAt: daysBefore(today, 14 + (index % 7)),
    })),
  );
  await tx.insert(workshiftAssignments).values(
    workerIds.map((workerId, index) => ({
      workerId,
      workshiftId: shiftIds[shiftIndexOf(index)],
      assignedAt: joined,
    })),
  );

  const assignedAt = new Date(`${joined}T04:00:00Z`);
  const helmets = workerIds.map((workerId, index) => ({
    siteId,
    networkId: input.networkIds[index % input.networkIds.length],
    wntInventoryId: `HLM-${pad(index + 1)}`,
    type: 'helmet',
    workerId,
    assignedAt,
  }));
  const worn = await tx
    .insert(inventoryItems)
    .values([...helmets, ...floorDevices(input)])
    .returning({ id: inventoryItems.id, workerId: inventoryItems.workerId });
  // The history of each handed-out helmet starts with its current, still open assignment.
  await tx
    .insert(helmetAssignments)
    .values(
      worn.flatMap((item) =>
        item.workerId === null ? [] : [{ inventoryItemId: item.id, workerId: item.workerId, assignedAt }],
      ),
    );
}

/** Approved anchors on each floor's grid and one sink, on the network of the floor's building. */
function floorDevices(input: DemoWorkforceInput) {
  const devices: (typeof inventoryItems.$inferInsert)[] = [];
  let anchor = 0;
  for (const [index, floor] of input.floors.entries()) {
    const transform = floorTransform(floor.corners, floor.image);
    const at = (x: number, y: number) =>
      transform.toGeo(imagePoint(x * floor.image.width, y * floor.image.height));
    const common = {
      siteId: input.siteId,
      networkId: input.networkIds[floor.buildingIndex % input.networkIds.length],
      floorId: floor.id,
    };
    for (const y of ANCHOR_GRID) {
      for (const x of ANCHOR_GRID) {
        anchor += 1;
        const { lat, long } = at(x, y);
        devices.push({
          ...common,
          wntInventoryId: `ANC-${pad(anchor)}`,
          type: 'anchor',
          isApproved: true,
          lat,
          long,
        });
      }
    }
    const sink = at(SINK_AT.x, SINK_AT.y);
    devices.push({
      ...common,
      wntInventoryId: `SNK-${pad(index + 1)}`,
      type: 'sink',
      lat: sink.lat,
      long: sink.long,
    });
  }
  return devices;
}
