import type { Role } from './roles';

/** Activity statuses (spec §4), in the order an activity normally passes through them. */
export const ACTIVITY_STATUSES = [
  'assigned',
  'in_progress',
  'delayed',
  'done',
  'in_review',
  'approved_by_cm',
  'approved',
] as const;

export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

/** What a user does to an activity; each action is one edge (or a few) of the table below. */
export const ACTIVITY_ACTIONS = [
  'start',
  'delay',
  'resume',
  'finish',
  'submit',
  'approve',
  'reject',
] as const;

export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** Who takes part: crew work (crew manager, site engineer) or site administration. */
type Actor = 'crew' | 'cm' | 'admin';

interface Transition {
  readonly from: ActivityStatus;
  readonly action: ActivityAction;
  readonly to: ActivityStatus;
  /** Which actors may take it; admins may always do what crews and crew managers may. */
  readonly by: readonly Actor[];
}

/**
 * The one table of allowed transitions (docs/decisions.md "eTQR activity statuses"). The spec
 * names the statuses and leaves the edges open. A crew works an activity (start, delay, resume,
 * finish) and its crew manager submits it for review and approves it (approved_by_cm); a site
 * administrator gives the final approval (approved). A rejection sends an activity under review or
 * approved by its crew manager back to in_progress with a reason. Approved is final.
 */
export const ACTIVITY_TRANSITIONS: readonly Transition[] = [
  { from: 'assigned', action: 'start', to: 'in_progress', by: ['crew', 'cm'] },
  { from: 'in_progress', action: 'delay', to: 'delayed', by: ['crew', 'cm'] },
  { from: 'delayed', action: 'resume', to: 'in_progress', by: ['crew', 'cm'] },
  { from: 'in_progress', action: 'finish', to: 'done', by: ['crew', 'cm'] },
  { from: 'delayed', action: 'finish', to: 'done', by: ['crew', 'cm'] },
  { from: 'done', action: 'submit', to: 'in_review', by: ['crew', 'cm'] },
  { from: 'in_review', action: 'approve', to: 'approved_by_cm', by: ['cm'] },
  { from: 'approved_by_cm', action: 'approve', to: 'approved', by: ['admin'] },
  { from: 'in_review', action: 'reject', to: 'in_progress', by: ['cm'] },
  { from: 'approved_by_cm', action: 'reject', to: 'in_progress', by: ['admin'] },
];

const ADMIN_ROLES: readonly Role[] = ['super-admin', 'client-admin', 'group-of-sites-admin'];

/** The actors a role acts as; a site viewer and the safety demo take no part. */
export function actorsOf(role: Role): readonly Actor[] {
  if (ADMIN_ROLES.includes(role)) return ['crew', 'cm', 'admin'];
  if (role === 'crew-manager') return ['crew', 'cm'];
  if (role === 'site-engineer') return ['crew'];
  return [];
}

/** The transition a role may take from a status by an action, if any. */
export function transitionFor(
  role: Role,
  from: ActivityStatus,
  action: ActivityAction,
): Transition | undefined {
  const actors = actorsOf(role);
  return ACTIVITY_TRANSITIONS.find(
    (edge) => edge.from === from && edge.action === action && edge.by.some((by) => actors.includes(by)),
  );
}

/** The actions a role may take on an activity in a status (the console shows only these). */
export function actionsFor(role: Role, from: ActivityStatus): ActivityAction[] {
  return ACTIVITY_ACTIONS.filter((action) => transitionFor(role, from, action) !== undefined);
}

/** Booking quantities, hours and delays is crew work, open until the activity is submitted. */
export function isBookable(status: ActivityStatus): boolean {
  return status === 'assigned' || status === 'in_progress' || status === 'delayed' || status === 'done';
}

export const ACTIVITY_STATUS_MESSAGES = {
  /** `{from}` is the status as the API spells it; `{action}` the action (refused: its past participle). */
  refused: 'An activity that is {from} cannot be {action}',
  forbidden: 'Your role cannot {action} an activity that is {from}',
  stale: 'The activity was changed by someone else; reload it and try again',
  reasonRequired: 'Reason is required',
  notBookable: 'An activity that is {from} can no longer be booked',
} as const;

/** "An activity that is {from} cannot be {action}": `action` is the past participle. */
export const refusedMessage = (from: string, action: string) =>
  ACTIVITY_STATUS_MESSAGES.refused.replace('{from}', from).replace('{action}', action);
/** "Your role cannot {action} an activity that is {from}". */
export const forbiddenMessage = (action: string, from: string) =>
  ACTIVITY_STATUS_MESSAGES.forbidden.replace('{action}', action).replace('{from}', from);
/** "An activity that is {from} can no longer be booked". */
export const notBookableMessage = (from: string) =>
  ACTIVITY_STATUS_MESSAGES.notBookable.replace('{from}', from);

/** Why a role may not take an action from a status, in words (null when it may). */
export function refusalOf(role: Role, from: ActivityStatus, action: ActivityAction): string | null {
  if (transitionFor(role, from, action)) return null;
  const exists = ACTIVITY_TRANSITIONS.some((edge) => edge.from === from && edge.action === action);
  return exists ? forbiddenMessage(action, from) : refusedMessage(from, PAST_PARTICIPLES[action]);
}

const PAST_PARTICIPLES: Record<ActivityAction, string> = {
  start: 'started',
  delay: 'delayed',
  resume: 'resumed',
  finish: 'finished',
  submit: 'submitted',
  approve: 'approved',
  reject: 'rejected',
};
