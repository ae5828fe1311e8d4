import { describe, expect, it } from 'vitest';
import { toWorkerDisplay, type WorkerFlat, type WorkerNested } from '../../src/domain/workers';
import { validateWorker } from '../../src/domain/workerValidation';

const now = new Date('2026-03-10T12:00:00Z');

const flat: WorkerFlat = {
  id: 7,
  media_url: '/api/sites/1/workers/7/picture',
  name: 'Ali Hassan',
  site_id: 1,
  worker_tag_id: 'EMP-1007',
  contact_number: null,
  helmet_color: 'yellow',
  created_at: '2026-02-01T23:30:00.000Z',
  updated_at: '2026-03-09T08:00:00.000Z',
  inventory_id: 70,
  inventory_assigned_at: '2026-02-02T04:00:00.000Z',
  is_online: true,
  is_active: true,
  worker_role_id: 3,
  worker_role_name: 'Carpenter',
  wnt_inventory_id: 'HLM-0007',
  building_name: 'Tower A',
  floor_name: 'Level 2',
  zone_name: null,
  last_seen: '2026-03-10T11:58:00.000Z',
  last_active_at: '2026-03-10T09:00:00.000Z',
  subcontractor_id: null,
  subcontractor_name: null,
  crew_name: 'Formwork A',
  workshift_name: 'Day',
};

const nested: WorkerNested = {
  id: 7,
  media_url: null,
  name: 'Ali Hassan',
  site_id: 1,
  worker_tag_id: 'EMP-1007',
  contact_number: '971501234567',
  helmet_color: 'yellow',
  created_at: flat.created_at,
  updated_at: flat.updated_at,
  inventory_id: 70,
  inventory_assigned_at: flat.inventory_assigned_at,
  worker_role_id: 3,
  subcontractor_id: 4,
  WorkerRole: { name: 'Carpenter' },
  Subcontractor: { name: 'Gulf Scaffolding' },
  Inventory: {
    is_online: true,
    is_active: false,
    wnt_inventory_id: 'HLM-0007',
    Building: { name: 'Tower A' },
    Floor: { name: 'Level 2' },
    Zone: { name: 'Core' },
    last_seen: '2026-03-10T11:58:00.000Z',
    last_active_at: null,
  },
  AssignedCrews: [{ crew_id: 1, crew_name: 'Formwork A', assigned_at: '2026-02-20' }],
  AssignedWorkshifts: [],
  HelmetHistory: [],
  crew_name: 'Formwork A',
  workshift_name: null,
};

describe('toWorkerDisplay', () => {
  it('turns the flat form into the display form with the caller placeholder', () => {
    const d = toWorkerDisplay(flat, { placeholder: '-NA-', now });
    expect(d).toMatchObject({
      id: 7,
      status: 'active',
      connection: 'active',
      image: { url: flat.media_url, status: 'active' },
      worker_role: 'Carpenter',
      subcontractor: '-NA-',
      contact_number: '-NA-',
      helmet: { color: 'yellow', wnt_inventory_id: 'HLM-0007' },
      building: 'Tower A',
      zone: '-NA-',
      last_seen: '2 minutes ago',
      last_active: '3 hours ago',
      created_at: '2026-02-01',
      updated_at: '2026-03-09',
      inventory_assigned_at: '2026-02-02',
      crew_name: 'Formwork A',
    });
  });

  it('turns the nested form into the same shape; online but not active is inactive', () => {
    const d = toWorkerDisplay(nested, { placeholder: '—', now });
    expect(d.status).toBe('inactive');
    expect(d.connection).toBe('inactive');
    expect(d.subcontractor).toBe('Gulf Scaffolding');
    expect(d.zone).toBe('Core');
    expect(d.last_active).toBe('—');
    expect(d.workshift_name).toBe('—');
    expect(d.image).toEqual({ url: null, status: 'inactive' });
    expect(Object.keys(d).sort()).toEqual(
      Object.keys(toWorkerDisplay(flat, { placeholder: '—', now })).sort(),
    );
  });

  it('a worker without a helmet has no status (placeholder) and an offline helmet is inactive', () => {
    const none = toWorkerDisplay(
      { ...nested, Inventory: null, inventory_id: null },
      { placeholder: '-NA-', now },
    );
    expect(none.status).toBe('-NA-');
    expect(none.image.status).toBeNull();
    expect(none.helmet.wnt_inventory_id).toBe('-NA-');
    const offline = toWorkerDisplay({ ...flat, is_online: false }, { placeholder: '-NA-', now });
    expect(offline.status).toBe('inactive');
    expect(offline.connection).toBe('offline');
  });

  it('writes relative times in Arabic when asked', () => {
    const d = toWorkerDisplay(flat, { placeholder: '-NA-', now, locale: 'ar' });
    expect(d.last_seen).not.toBe('2 minutes ago');
    expect(d.last_seen.length).toBeGreaterThan(0);
  });
});

describe('validateWorker', () => {
  it('trims and normalises a valid form', () => {
    expect(
      validateWorker({ name: ' Ali ', contact_number: ' 0501234567 ', worker_tag_id: '' }).fields,
    ).toEqual({
      name: 'Ali',
      worker_tag_id: null,
      contact_number: '0501234567',
      helmet_color: null,
      worker_role_id: null,
      subcontractor_id: null,
    });
  });

  it('answers the spec messages', () => {
    expect(validateWorker({}).errors.name).toBe('Name is required');
    expect(validateWorker({ name: 'x' }).errors.name).toBe('Name accepts a minimum of 2 characters');
    expect(validateWorker({ name: 'ok', contact_number: '+971' }).errors.contact_number).toBe(
      'Contact number accepts only digits',
    );
    expect(validateWorker({ name: 'ok', contact_number: 1234 }).errors.contact_number).toBe(
      'Contact number accepts a minimum of 7 digits',
    );
  });
});
