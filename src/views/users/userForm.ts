import { LIMITS } from '../../domain/limits';
import { messages } from '../../domain/messages';
import { nameProblem } from '../../domain/nameRule';
import { type Role, seesWholeClient } from '../../domain/roles';
import type { EditUserBody, InviteBody } from '../../domain/schemas/users';
import type { ManagedUser } from '../../domain/user';

/**
 * The invite, edit and password forms of user management: their values, their problems in the
 * spec's words (§5, English; the screen translates them as it does the server's) and the bodies
 * they send.
 */

export interface UserForm {
  name: string;
  email: string;
  role: Role | '';
  siteIds: number[];
}

export type UserFormField = 'name' | 'email' | 'user_role' | 'site_ids';

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function userForm(user: ManagedUser | null): UserForm {
  return {
    name: user?.name ?? '',
    email: user?.email ?? '',
    role: user?.user_role ?? '',
    siteIds: [...(user?.site_ids ?? [])].sort((a, b) => a - b),
  };
}

/** Whether a role is given sites: a super- or client-admin reaches its sites through its role. */
export function takesSites(role: Role | ''): boolean {
  return role !== '' && role !== 'super-admin' && !seesWholeClient(role);
}

export function emailProblem(value: string): string | null {
  const email = value.trim();
  if (!email) return messages.required('Email');
  if (email.length > LIMITS.emailMax) return messages.maxChars('Email', LIMITS.emailMax);
  return EMAIL_SHAPE.test(email) ? null : messages.invalid('Email');
}

/** Every problem of the form by field; the e-mail only when inviting (it is not edited). */
export function userFormProblems(form: UserForm, inviting: boolean): Partial<Record<UserFormField, string>> {
  const problems: Partial<Record<UserFormField, string>> = {};
  const name = nameProblem('Name', form.name);
  if (name) problems.name = name;
  const email = inviting ? emailProblem(form.email) : null;
  if (email) problems.email = email;
  if (form.role === '') problems.user_role = messages.required('Role');
  return problems;
}

export function inviteBody(form: UserForm, clientId: number): InviteBody {
  const role = form.role as Role;
  return {
    name: form.name.trim(),
    email: form.email.trim(),
    user_role: role,
    ...(role === 'super-admin' ? {} : { client_id: clientId }),
    ...(takesSites(role) ? { site_ids: form.siteIds } : {}),
  };
}

/** Only what changed, so an edit never touches what the form left alone. */
export function editBody(form: UserForm, user: ManagedUser): EditUserBody {
  const initial = userForm(user);
  const body: EditUserBody = {};
  if (form.name.trim() !== user.name) body.name = form.name.trim();
  if (form.role !== '' && form.role !== user.user_role) body.user_role = form.role;
  const role = form.role === '' ? user.user_role : form.role;
  if (takesSites(role) && user.client_id !== null && !sameIds(form.siteIds, initial.siteIds)) {
    body.site_ids = form.siteIds;
  }
  return body;
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  const sorted = (ids: readonly number[]) => [...ids].sort((x, y) => x - y).join(',');
  return sorted(a) === sorted(b);
}

export interface PasswordProblems {
  /** In the spec's words (§5). */
  password?: string;
  /** The screen words these: the spec has no text for them. */
  confirmation?: 'required' | 'differs';
}

export function passwordProblems(password: string, confirmation: string): PasswordProblems {
  const problems: PasswordProblems = {};
  if (password === '') problems.password = messages.required('Password');
  else if (password.length < LIMITS.passwordMin)
    problems.password = messages.minChars('Password', LIMITS.passwordMin);
  else if (password.length > LIMITS.passwordMax)
    problems.password = messages.maxChars('Password', LIMITS.passwordMax);
  if (confirmation === '') problems.confirmation = 'required';
  else if (confirmation !== password) problems.confirmation = 'differs';
  return problems;
}
