import { messages } from './messages';

/**
 * The worker form's rules (spec §3 worker forms, §5 messages), shared by the console's drawer and
 * the server's create/edit routes. Limits (chosen here, spec leaves them open):
 * - Name: required, 2–100 characters (trimmed).
 * - Worker tag id: optional, at most 50 characters.
 * - Contact number: optional, digits only, 7–15 digits (E.164 allows at most 15).
 * - Helmet color: optional, at most 30 characters (a colour name or a #hex).
 */
export const WORKER_LIMITS = {
  nameMin: 2,
  nameMax: 100,
  tagMax: 50,
  contactMin: 7,
  contactMax: 15,
  helmetColorMax: 30,
} as const;

export const WORKER_LABELS = {
  name: 'Name',
  worker_tag_id: 'Worker tag id',
  contact_number: 'Contact number',
  helmet_color: 'Helmet color',
  worker_role_id: 'Worker role',
  subcontractor_id: 'Subcontractor',
} as const;

export const workerMessages = {
  label: 'Worker',
  helmetTaken: 'The helmet is already assigned to another worker',
  helmetAssigned: 'The helmet is assigned successfully',
  helmetUnassigned: 'The helmet is unassigned successfully',
  noHelmet: 'The worker has no helmet assigned',
  updated: 'Worker is updated successfully',
  image: "PNG, JPEG, JPG formats are allowed, image can't exceed 3MB",
} as const;

type Raw = string | number | null | undefined;

export interface WorkerFormInput {
  name?: Raw;
  worker_tag_id?: Raw;
  contact_number?: Raw;
  helmet_color?: Raw;
  worker_role_id?: number | null;
  subcontractor_id?: number | null;
}

export interface WorkerFields {
  name: string;
  worker_tag_id: string | null;
  contact_number: string | null;
  helmet_color: string | null;
  worker_role_id: number | null;
  subcontractor_id: number | null;
}

export type WorkerFieldErrors = Partial<Record<keyof WorkerFields, string>>;

const trimmed = (raw: Raw): string => (raw === null || raw === undefined ? '' : String(raw).trim());

/** Checks and normalises a worker form; `fields` is null when any error was found. */
export function validateWorker(input: WorkerFormInput): {
  fields: WorkerFields | null;
  errors: WorkerFieldErrors;
} {
  const errors: WorkerFieldErrors = {};
  const L = WORKER_LIMITS;
  const name = trimmed(input.name);
  if (name === '') errors.name = messages.required(WORKER_LABELS.name);
  else if ([...name].length < L.nameMin) errors.name = messages.minChars(WORKER_LABELS.name, L.nameMin);
  else if ([...name].length > L.nameMax) errors.name = messages.maxChars(WORKER_LABELS.name, L.nameMax);

  const tag = trimmed(input.worker_tag_id);
  if ([...tag].length > L.tagMax)
    errors.worker_tag_id = messages.maxChars(WORKER_LABELS.worker_tag_id, L.tagMax);

  const contact = trimmed(input.contact_number);
  if (contact !== '') {
    const label = WORKER_LABELS.contact_number;
    if (!/^\d+$/.test(contact)) errors.contact_number = messages.onlyDigits(label);
    else if (contact.length < L.contactMin) errors.contact_number = messages.minDigits(label, L.contactMin);
    else if (contact.length > L.contactMax) errors.contact_number = messages.maxDigits(label, L.contactMax);
  }

  const color = trimmed(input.helmet_color);
  if ([...color].length > L.helmetColorMax) {
    errors.helmet_color = messages.maxChars(WORKER_LABELS.helmet_color, L.helmetColorMax);
  }

  if (Object.keys(errors).length > 0) return { fields: null, errors };
  return {
    fields: {
      name,
      worker_tag_id: tag === '' ? null : tag,
      contact_number: contact === '' ? null : contact,
      helmet_color: color === '' ? null : color,
      worker_role_id: input.worker_role_id ?? null,
      subcontractor_id: input.subcontractor_id ?? null,
    },
    errors,
  };
}
