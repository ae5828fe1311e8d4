import { messages } from './messages';

/**
 * The Excel upload kinds (spec §7 uploads and the bulk sub-API), shared by the console's bulk
 * upload screen and the server's templates, validation and commit. A kind's columns are the
 * template's headers in order; a file's header row is matched to them by text, so a reordered
 * sheet still reads. Every path below is relative to `/api/sites/{id}/` (main API) or
 * `/bulk/api/sites/{id}/` (bulk sub-API).
 */

export const BULK_KINDS = [
  'workers',
  'crewWorkshiftAssignments',
  'locationGroups',
  'locationAssignments',
  'workerLocationAssignments',
  'attendance',
  'workerStatusAssignments',
  'crewGroups',
  'crewManagers',
  'subcontractorGroups',
  'workerRoleGroups',
  'reportHours',
  'activities',
  'activityCodes',
] as const;

export type BulkKind = (typeof BULK_KINDS)[number];

/** Where a list column takes its allowed values from: the site's own rows. */
export type BulkListSource =
  | 'workerRoles'
  | 'subcontractors'
  | 'crews'
  | 'workshifts'
  | 'zones'
  | 'locationGroups'
  | 'workerStatuses'
  | 'crewManagerUsers'
  | 'activityCodes'
  | 'yesNo';

export type BulkColumnType =
  /** Free text, trimmed; `min`/`max` characters. */
  | 'text'
  /** Digits only (a phone number); `min`/`max` digits. */
  | 'digits'
  /** A worker of the site, by worker tag id. */
  | 'worker'
  /** One of the values of `list`. */
  | 'list'
  /** A calendar date: YYYY-MM-DD, DD/MM/YYYY or a date cell. */
  | 'date'
  /** A clock time HH:mm (24 h) or a time cell. */
  | 'time'
  /** A number ≥ 0 with at most two decimals; `max` bounds it. */
  | 'number';

export interface BulkColumn {
  /** The key of the cell in a stored row and in the API. */
  key: string;
  /** The template's header, and the label in the spec's messages ("<label> is required"). */
  label: string;
  type: BulkColumnType;
  required: boolean;
  list?: BulkListSource;
  min?: number;
  max?: number;
  /** What the template's second sheet says about the column. */
  help: string;
  /** The value of the template's example row. */
  example: string;
}

export interface BulkKindDefinition {
  kind: BulkKind;
  /** The kind's name on screen and in "<label> name already exists!". */
  label: string;
  columns: readonly BulkColumn[];
  /**
   * The columns whose values together identify a row: a second row with the same values in the
   * file, or a row the site already has, is a duplicate ("<label> name already exists!").
   */
  identity: readonly string[];
  /** The bulk sub-API's path of the kind: `{bulkPath}/{uploadId}` uploads, `{bulkPath}/list` lists. */
  bulkPath: string;
  /** The bulk sub-API's list path when the spec names one apart from `{bulkPath}/list`. */
  bulkListPath?: string;
  /** The main API's upload call, when the spec has one (relative to /api/sites/{id}/). */
  mainUploadPath?: string;
  /** The main API's template call (relative to /api/sites/{id}/). */
  mainTemplatePath: string;
  /** A template call of the bulk sub-API without a site in its path (relative to /bulk/api/). */
  siteFreeTemplatePath?: string;
}

const WORKER_TAG: BulkColumn = {
  key: 'worker_tag_id',
  label: 'Worker tag id',
  type: 'worker',
  required: true,
  max: 50,
  help: 'The worker tag id of a worker of this site.',
  example: 'W-0001',
};

const dateColumn = (key: string, label: string, required: boolean, help: string): BulkColumn => ({
  key,
  label,
  type: 'date',
  required,
  help: `${help} As YYYY-MM-DD or DD/MM/YYYY.`,
  example: '2026-12-01',
});

const nameColumn = (key: string, label: string, help: string, example: string): BulkColumn => ({
  key,
  label,
  type: 'text',
  required: true,
  min: 2,
  max: 100,
  help,
  example,
});

const listColumn = (
  key: string,
  label: string,
  list: BulkListSource,
  required: boolean,
  help: string,
  example: string,
): BulkColumn => ({ key, label, type: 'list', list, required, help, example });

const KINDS: Record<BulkKind, BulkKindDefinition> = {
  workers: {
    kind: 'workers',
    label: 'Worker',
    columns: [
      nameColumn('name', 'Name', "The worker's full name.", 'Amina Yusuf'),
      {
        key: 'worker_tag_id',
        label: 'Worker tag id',
        type: 'text',
        required: false,
        max: 50,
        help: 'The badge or tag the site knows the worker by; unique on the site.',
        example: 'W-0001',
      },
      {
        key: 'contact_number',
        label: 'Contact number',
        type: 'digits',
        required: false,
        min: 7,
        max: 15,
        help: 'Digits only, 7 to 15 of them, no spaces or plus sign.',
        example: '971500000001',
      },
      {
        key: 'helmet_color',
        label: 'Helmet color',
        type: 'text',
        required: false,
        max: 30,
        help: 'A colour name or a #hex colour.',
        example: 'yellow',
      },
      listColumn('worker_role', 'Worker role', 'workerRoles', false, 'One of the site’s worker roles.', ''),
      listColumn(
        'subcontractor',
        'Subcontractor',
        'subcontractors',
        false,
        'One of the site’s subcontractors.',
        '',
      ),
      listColumn('crew', 'Crew', 'crews', false, 'One of the site’s crews; the worker joins it today.', ''),
      listColumn(
        'workshift',
        'Work shift',
        'workshifts',
        false,
        'One of the site’s work shifts; from today.',
        '',
      ),
    ],
    identity: ['worker_tag_id'],
    bulkPath: 'workers/bulk',
    mainUploadPath: 'workers/upload',
    mainTemplatePath: 'workers/download/template',
  },
  crewWorkshiftAssignments: {
    kind: 'crewWorkshiftAssignments',
    label: 'Crew and work shift assignment',
    columns: [
      WORKER_TAG,
      listColumn('crew', 'Crew', 'crews', false, 'The crew the worker joins on the date.', ''),
      listColumn(
        'workshift',
        'Work shift',
        'workshifts',
        false,
        'The work shift the worker works from the date.',
        '',
      ),
      dateColumn('assigned_at', 'Assigned at', true, 'The first day of the assignment.'),
    ],
    identity: ['worker_tag_id', 'assigned_at'],
    bulkPath: 'workers/crew-workshift/bulk',
    mainTemplatePath: 'workers/download/template/create-crew-workshift-assignments',
  },
  locationGroups: {
    kind: 'locationGroups',
    label: 'Location group',
    columns: [
      nameColumn(
        'location_group',
        'Location group',
        'A new location group; one row per zone of it.',
        'Core works',
      ),
      listColumn('zone', 'Zone', 'zones', true, 'A zone of the site, as Building / Floor / Zone.', ''),
    ],
    identity: ['location_group', 'zone'],
    bulkPath: 'location-groups/bulk',
    mainUploadPath: 'location-groups/bulk',
    mainTemplatePath: 'location-groups/download/template',
  },
  locationAssignments: {
    kind: 'locationAssignments',
    label: 'Location assignment',
    columns: [
      listColumn(
        'location_group',
        'Location group',
        'locationGroups',
        true,
        'An existing location group.',
        '',
      ),
      listColumn('zone', 'Zone', 'zones', true, 'A zone added to the group, as Building / Floor / Zone.', ''),
    ],
    identity: ['location_group', 'zone'],
    bulkPath: 'location-assignment/bulk',
    mainTemplatePath: 'location-assignment/download/template',
    siteFreeTemplatePath: 'location-assignment/bulk/template',
  },
  workerLocationAssignments: {
    kind: 'workerLocationAssignments',
    label: 'Worker location assignment',
    columns: [
      WORKER_TAG,
      listColumn(
        'location_group',
        'Location group',
        'locationGroups',
        true,
        'Where the worker works from the date.',
        '',
      ),
      dateColumn('assigned_at', 'Assigned at', true, 'The first day of the assignment.'),
    ],
    identity: ['worker_tag_id', 'assigned_at'],
    bulkPath: 'workers/location-groups/assign/bulk',
    mainTemplatePath: 'workers/download/template/create-location-group-assignments',
  },
  attendance: {
    kind: 'attendance',
    label: 'Attendance',
    columns: [
      WORKER_TAG,
      dateColumn('day', 'Date', true, 'The day, in the site’s time zone.'),
      listColumn('present', 'Present', 'yesNo', true, 'Yes when the worker came, No when absent.', 'Yes'),
      {
        key: 'check_in',
        label: 'Check in',
        type: 'time',
        required: false,
        help: 'HH:mm, 24-hour clock.',
        example: '07:00',
      },
      {
        key: 'check_out',
        label: 'Check out',
        type: 'time',
        required: false,
        help: 'HH:mm; before the check in crosses midnight.',
        example: '16:30',
      },
      {
        key: 'notes',
        label: 'Notes',
        type: 'text',
        required: false,
        max: 500,
        help: 'Anything the time keeper noted.',
        example: '',
      },
    ],
    identity: ['worker_tag_id', 'day'],
    bulkPath: 'workers/attendance/bulk',
    mainUploadPath: 'workers/attendance/bulk',
    mainTemplatePath: 'workers/download/template/create-attendance',
  },
  workerStatusAssignments: {
    kind: 'workerStatusAssignments',
    label: 'Worker status assignment',
    columns: [
      WORKER_TAG,
      listColumn('status', 'Status', 'workerStatuses', true, 'One of the site’s worker statuses.', ''),
      dateColumn('starts_on', 'Starts on', true, 'The first day of the status.'),
      dateColumn('ends_on', 'Ends on', false, 'The last day of the status; empty while it lasts.'),
      {
        key: 'notes',
        label: 'Notes',
        type: 'text',
        required: false,
        max: 500,
        help: 'Why, for the record.',
        example: '',
      },
    ],
    identity: ['worker_tag_id', 'status', 'starts_on'],
    bulkPath: 'workers/worker-status/assign/bulk',
    bulkListPath: 'workers/worker-status/bulk/list',
    mainUploadPath: 'workers/worker-status/assign/bulk',
    mainTemplatePath: 'workers/download/template/create-worker-status-assignments',
  },
  crewGroups: {
    kind: 'crewGroups',
    label: 'Crew group',
    columns: [
      nameColumn('crew_group', 'Crew group', 'A new crew group; one row per crew of it.', 'Structure crews'),
      listColumn('crew', 'Crew', 'crews', true, 'A crew of the site.', ''),
    ],
    identity: ['crew_group', 'crew'],
    bulkPath: 'crew/bulk',
    mainUploadPath: 'crew-groups/bulk',
    mainTemplatePath: 'crew-groups/download/template',
    siteFreeTemplatePath: 'crew/bulk/template',
  },
  crewManagers: {
    kind: 'crewManagers',
    label: 'Crew manager',
    columns: [
      listColumn('crew', 'Crew', 'crews', true, 'A crew of the site.', ''),
      listColumn(
        'manager_email',
        'Manager e-mail',
        'crewManagerUsers',
        true,
        'The e-mail of a crew manager of the site.',
        '',
      ),
    ],
    identity: ['crew', 'manager_email'],
    bulkPath: 'crew/crew-manager/bulk',
    mainTemplatePath: 'crews/assign/crew-manager/download/template',
  },
  subcontractorGroups: {
    kind: 'subcontractorGroups',
    label: 'Subcontractor group',
    columns: [
      nameColumn(
        'subcontractor_group',
        'Subcontractor group',
        'A new subcontractor group; one row per member.',
        'Civil works',
      ),
      listColumn(
        'subcontractor',
        'Subcontractor',
        'subcontractors',
        true,
        'A subcontractor of the site.',
        '',
      ),
    ],
    identity: ['subcontractor_group', 'subcontractor'],
    bulkPath: 'subcontractor-groups/bulk',
    mainUploadPath: 'subcontractor-groups/bulk',
    mainTemplatePath: 'subcontractor-groups/download/template',
  },
  workerRoleGroups: {
    kind: 'workerRoleGroups',
    label: 'Worker role group',
    columns: [
      nameColumn(
        'worker_role_group',
        'Worker role group',
        'A new worker role group; one row per role of it.',
        'Trades',
      ),
      listColumn('worker_role', 'Worker role', 'workerRoles', true, 'A worker role of the site.', ''),
    ],
    identity: ['worker_role_group', 'worker_role'],
    bulkPath: 'worker-role-group/bulk',
    mainTemplatePath: 'worker-role-groups/download/template',
    siteFreeTemplatePath: 'worker-role-group/bulk/template',
  },
  reportHours: {
    kind: 'reportHours',
    label: 'Reported hours',
    columns: [
      WORKER_TAG,
      dateColumn('day', 'Date', true, 'The day worked, in the site’s time zone.'),
      {
        key: 'hours',
        label: 'Hours',
        type: 'number',
        required: true,
        max: 24,
        help: 'Hours worked, 0 to 24, two decimals at most.',
        example: '8.5',
      },
      {
        key: 'notes',
        label: 'Notes',
        type: 'text',
        required: false,
        max: 500,
        help: 'What the hours were for.',
        example: '',
      },
    ],
    identity: ['worker_tag_id', 'day'],
    bulkPath: 'workers/report-hours/bulk',
    mainTemplatePath: 'workers/download/template/create-report-hours',
  },
  activities: {
    kind: 'activities',
    label: 'Activity',
    columns: [
      nameColumn('name', 'Activity', 'The activity’s name, unique on its day.', 'Pour slab L2 east'),
      listColumn(
        'activity_code',
        'Activity code',
        'activityCodes',
        true,
        'One of the site’s activity codes.',
        '',
      ),
      dateColumn('day', 'Date', true, 'The day the activity is planned for.'),
      listColumn('crew', 'Crew', 'crews', false, 'The crew doing it.', ''),
      listColumn('location_group', 'Location group', 'locationGroups', false, 'Where it is done.', ''),
      {
        key: 'planned_quantity',
        label: 'Planned quantity',
        type: 'number',
        required: true,
        max: 1e9,
        help: 'In the code’s unit of measure.',
        example: '120',
      },
      {
        key: 'target_quantity',
        label: 'Target quantity',
        type: 'number',
        required: false,
        max: 1e9,
        help: 'In the code’s unit of measure.',
        example: '',
      },
      {
        key: 'planned_hours',
        label: 'Planned hours',
        type: 'number',
        required: true,
        max: 1e6,
        help: 'Worker-hours planned.',
        example: '40',
      },
    ],
    identity: ['name', 'day'],
    bulkPath: 'etqr/bulk',
    mainTemplatePath: 'activity/download/template',
  },
  activityCodes: {
    kind: 'activityCodes',
    label: 'Activity code',
    columns: [
      {
        key: 'code',
        label: 'Code',
        type: 'text',
        required: true,
        min: 1,
        max: 30,
        help: 'A short code, unique on the site.',
        example: 'CON-01',
      },
      nameColumn('name', 'Name', 'What the code stands for.', 'Concrete pouring'),
      {
        key: 'uom',
        label: 'UOM',
        type: 'text',
        required: true,
        min: 1,
        max: 20,
        help: 'Unit of measure: m3, m2, t, nos…',
        example: 'm3',
      },
      {
        key: 'target_rate',
        label: 'Target rate',
        type: 'number',
        required: true,
        max: 1e6,
        help: 'Units per worker-hour, above 0.',
        example: '2.5',
      },
    ],
    identity: ['code'],
    bulkPath: 'activity-codes/bulk',
    mainTemplatePath: 'activity-code/download/template',
  },
};

export function bulkKind(kind: BulkKind): BulkKindDefinition {
  return KINDS[kind];
}

export const BULK_KIND_DEFINITIONS: readonly BulkKindDefinition[] = BULK_KINDS.map((kind) => KINDS[kind]);

export function isBulkKind(value: string): value is BulkKind {
  return (BULK_KINDS as readonly string[]).includes(value);
}

/** The bulk sub-API's list path of a kind (relative to /bulk/api/sites/{id}/). */
export function bulkListPath(definition: BulkKindDefinition): string {
  return definition.bulkListPath ?? `${definition.bulkPath}/list`;
}

/** Most rows one upload may hold (the header not counted). */
export const BULK_MAX_ROWS = 100_000;

/** `validating` while the file is read; an upload left validating by a crash reads as failed. */
export type BulkUploadStatus = 'validating' | 'draft' | 'committed' | 'cancelled' | 'failed';

/** The uploads' own texts; cell rules use the spec's (messages.ts: required, invalid, not found). */
export const BULK_MESSAGES = {
  uploadSuccess: 'Upload Success',
  tooManyRows: `The file has more than ${BULK_MAX_ROWS.toLocaleString('en-US')} rows; split it and upload each part`,
  noRows: 'The file has no rows under its header',
  missingHeader: 'The file’s first row is not the template’s header',
  hasErrors: 'Some rows have errors: fix them and upload the file again',
  notDraft: 'The upload is no longer a draft',
  unreadable: 'The file could not be read as an Excel workbook',
  uploadIdUsed: 'The upload id is already used',
  oneFile: 'Upload one file at a time',
  endBeforeStart: 'Ends on is before Starts on',
  absentWithTimes: 'Check in and Check out stay empty for an absent worker',
} as const;

/** A cell's value that breaks its column's rule ("<label> is invalid"). */
export const invalidCell = (label: string) => messages.invalid(label);
/** A cell naming a row the site does not have ("<label> not found"). */
export const notOnSite = (label: string) => messages.notFound(label);
