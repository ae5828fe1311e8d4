import type { IncidentStatus } from './incidents';
import { LIMITS } from './limits';

/**
 * Staged escalation of safety incidents (issue 17): an incident nobody acknowledges climbs the
 * site's escalation levels on its own, one level each time the level's delay runs out.
 */

/** Who a level tells besides the addresses it lists. */
export const ESCALATION_CONTACTS = ['site', 'client', 'none'] as const;
/**
 * site: the site's safety contacts (server/safety/safetyContacts.ts); client: the client admins of
 * the site's client (super-admins when it has none); none: only the listed addresses.
 */
export type EscalationContacts = (typeof ESCALATION_CONTACTS)[number];

export interface EscalationLevel {
  /** 1, 2, 3… in order. */
  level: number;
  /** Minutes after the previous step (the raise, for level 1) without an acknowledgement. */
  afterMinutes: number;
  contacts: EscalationContacts;
  /** E-mail addresses told as well as the contacts. */
  recipients: string[];
}

export const ESCALATION_LIMITS = {
  maxLevels: 5,
  minMinutes: 0.5,
  maxMinutes: 1440,
  maxRecipients: 20,
  maxPossiblyInsideHours: 12,
} as const;

/** Used while a site has saved none (docs/decisions.md, "Staged escalation of incidents"). */
export const DEFAULT_ESCALATION_LEVELS: readonly EscalationLevel[] = [
  { level: 1, afterMinutes: 5, contacts: 'site', recipients: [] },
  { level: 2, afterMinutes: 10, contacts: 'client', recipients: [] },
];

/** Refusals and validation texts, sent by the server and shown by the console as they are. */
export const ESCALATION_MESSAGES = {
  alreadyAcknowledged: 'Incident is already acknowledged',
  alreadyResolved: 'Incident is already resolved',
  lastLevel: 'Incident is already at the last escalation level',
  levelChanged: 'The incident changed meanwhile: look at it again',
  escalated: 'Incident escalated',
  acknowledged: 'Incident acknowledged',
  resolved: 'Incident resolved',
  settingsSaved: 'Safety settings saved',
  noLevels: 'Add at least one escalation level',
  tooManyLevels: `At most ${ESCALATION_LIMITS.maxLevels} escalation levels`,
  levelOrder: 'Escalation levels must be numbered 1, 2, 3… in order',
  afterMinutes: `Delay must be from ${ESCALATION_LIMITS.minMinutes} to ${ESCALATION_LIMITS.maxMinutes} minutes`,
  contacts: 'Choose who this level notifies',
  badRecipient: 'Each recipient must be an e-mail address',
  tooManyRecipients: `At most ${ESCALATION_LIMITS.maxRecipients} recipients per level`,
  noRecipient: 'A level that notifies no contacts needs at least one e-mail address',
  possiblyInsideHours: `Possibly inside must be more than 0 and at most ${ESCALATION_LIMITS.maxPossiblyInsideHours} hours, or blank for the start of the shift`,
} as const;

/** A site's safety settings as GET/PUT /api/safety/settings carry them. */
export interface SafetySettings {
  /** How long before an evacuation alarm a silent helmet still counts as possibly inside; null: since the shift started. */
  possiblyInsideHours: number | null;
  escalationLevels: EscalationLevel[];
}

/** Field path → message, e.g. `escalationLevels.1.afterMinutes`; empty when valid. */
export type SettingsErrors = Record<string, string>;

// The console and the server agree on one permissive shape: something@something.tld, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

export function validateEscalationLevels(levels: unknown): SettingsErrors {
  const field = 'escalationLevels';
  if (!Array.isArray(levels) || levels.length === 0) return { [field]: ESCALATION_MESSAGES.noLevels };
  if (levels.length > ESCALATION_LIMITS.maxLevels) return { [field]: ESCALATION_MESSAGES.tooManyLevels };
  const errors: SettingsErrors = {};
  levels.forEach((entry: Partial<EscalationLevel> | null, index) => {
    const at = `${field}.${index}`;
    if (typeof entry !== 'object' || entry === null) {
      errors[at] = ESCALATION_MESSAGES.levelOrder;
      return;
    }
    if (entry.level !== index + 1) errors[`${at}.level`] = ESCALATION_MESSAGES.levelOrder;
    const minutes = entry.afterMinutes;
    if (
      !isNumber(minutes) ||
      minutes < ESCALATION_LIMITS.minMinutes ||
      minutes > ESCALATION_LIMITS.maxMinutes
    )
      errors[`${at}.afterMinutes`] = ESCALATION_MESSAGES.afterMinutes;
    if (!(ESCALATION_CONTACTS as readonly unknown[]).includes(entry.contacts))
      errors[`${at}.contacts`] = ESCALATION_MESSAGES.contacts;
    const recipients = entry.recipients;
    if (!Array.isArray(recipients)) errors[`${at}.recipients`] = ESCALATION_MESSAGES.badRecipient;
    else if (recipients.length > ESCALATION_LIMITS.maxRecipients)
      errors[`${at}.recipients`] = ESCALATION_MESSAGES.tooManyRecipients;
    else if (recipients.some((r) => typeof r !== 'string' || r.length > LIMITS.emailMax || !EMAIL.test(r)))
      errors[`${at}.recipients`] = ESCALATION_MESSAGES.badRecipient;
    else if (entry.contacts === 'none' && recipients.length === 0)
      errors[`${at}.recipients`] = ESCALATION_MESSAGES.noRecipient;
  });
  return errors;
}

export function validatePossiblyInsideHours(hours: unknown): SettingsErrors {
  if (hours === null) return {};
  if (isNumber(hours) && hours > 0 && hours <= ESCALATION_LIMITS.maxPossiblyInsideHours) return {};
  return { possiblyInsideHours: ESCALATION_MESSAGES.possiblyInsideHours };
}

export function validateSafetySettings(settings: SafetySettings): SettingsErrors {
  return {
    ...validatePossiblyInsideHours(settings.possiblyInsideHours),
    ...validateEscalationLevels(settings.escalationLevels),
  };
}

/** Splits what a person typed into a recipients box: commas, semicolons, spaces or new lines. */
export function parseRecipients(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** What a site stored, or the default when it stored nothing usable. */
export function effectiveEscalationLevels(stored: unknown): EscalationLevel[] {
  if (Object.keys(validateEscalationLevels(stored)).length > 0) return DEFAULT_ESCALATION_LEVELS.map(copy);
  return (stored as EscalationLevel[]).map(copy);
}

const copy = (level: EscalationLevel): EscalationLevel => ({ ...level, recipients: [...level.recipients] });

const MINUTE_MS = 60_000;

/**
 * When the step after `level` is due, counted from `since` (the raise or the last step), or null
 * when `level` is the last: nothing climbs further on its own.
 */
export function nextEscalationDue(
  levels: readonly EscalationLevel[],
  level: number,
  since: Date,
): Date | null {
  const next = levels[level];
  if (!next) return null;
  return new Date(since.getTime() + next.afterMinutes * MINUTE_MS);
}

/** What a person or the scheduler does to an incident. */
export type IncidentAction = 'escalate' | 'acknowledge' | 'resolve';

/**
 * The incident lifecycle: open → escalated (level n, again and again up to the last level) →
 * acknowledged → resolved. An acknowledged incident stops climbing: someone has it in hand.
 * Resolving needs no acknowledgement first (a false alarm is simply closed).
 */
const TRANSITIONS: Record<IncidentAction, Partial<Record<IncidentStatus, IncidentStatus>>> = {
  escalate: { open: 'escalated', escalated: 'escalated' },
  acknowledge: { open: 'acknowledged', escalated: 'acknowledged' },
  resolve: { open: 'resolved', escalated: 'resolved', acknowledged: 'resolved' },
};

/** Statuses in which the scheduler may still escalate an incident. */
export const CLIMBING_STATUSES: readonly IncidentStatus[] = ['open', 'escalated'];

const REFUSALS: Record<IncidentStatus, string> = {
  open: ESCALATION_MESSAGES.lastLevel,
  escalated: ESCALATION_MESSAGES.lastLevel,
  acknowledged: ESCALATION_MESSAGES.alreadyAcknowledged,
  resolved: ESCALATION_MESSAGES.alreadyResolved,
};

export type TransitionResult =
  | { allowed: true; status: IncidentStatus }
  | { allowed: false; message: string };

/** Whether `action` may happen to an incident in `status` at `level` of `levelCount` levels. */
export function incidentTransition(
  incident: { status: IncidentStatus; level: number },
  action: IncidentAction,
  levelCount: number,
): TransitionResult {
  const status = TRANSITIONS[action][incident.status];
  if (!status) return { allowed: false, message: REFUSALS[incident.status] };
  if (action === 'escalate' && incident.level >= levelCount)
    return { allowed: false, message: ESCALATION_MESSAGES.lastLevel };
  return { allowed: true, status };
}

/** Statuses an action may start from, for conditional updates that must not lose a race. */
export function statusesAllowing(action: IncidentAction): IncidentStatus[] {
  return Object.keys(TRANSITIONS[action]) as IncidentStatus[];
}
