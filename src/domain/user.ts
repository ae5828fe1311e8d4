import type { Locale } from './limits';
import type { Permission, Role } from './roles';

/** The user as the server replies it (spec §3: the role comes as user_role). */
export interface ApiUser {
  id: number;
  name: string;
  email: string;
  user_role: Role;
  permissions: Permission[];
  locale: Locale;
  last_client_id: number | null;
  last_site_id: number | null;
}

export interface LoginReply {
  access_token: string;
  user: ApiUser;
}

export type UserStatus = 'active' | 'inactive' | 'invited';

/** A user as listed in user management. */
export interface ManagedUser {
  id: number;
  key: number;
  name: string;
  email: string;
  user_role: Role;
  status: UserStatus;
  client_id: number | null;
  group_of_sites_id: number | null;
  clients: { id: number; name: string }[];
  /** The sites it reaches that the caller sees, by name. */
  sites: { id: number; name: string }[];
  /** Its site memberships among those (what an edit replaces). */
  site_ids: number[];
  /** It has set a password. */
  registered: boolean;
}

/** The reply envelope of DESIGN.md §3. */
export interface Envelope<T> {
  status: 'success' | 'error';
  message?: string;
  data?: T;
  meta?: { page: number; perPage: number; total: number };
  errors?: Record<string, string>;
  /** The i18n key of `message` and its values (src/domain/messageCatalog.ts), when the client asked. */
  messageKey?: string;
  messageParams?: Record<string, string | number>;
  /** The key and values of each field error of `errors`, by field. */
  errorKeys?: Record<string, { key: string; params?: Record<string, string | number> }>;
}

export interface Client {
  id: number;
  name: string;
}

export interface Site {
  id: number;
  name: string;
  timezone: string;
  client_id: number;
  group_of_sites_id: number | null;
}

export interface Building {
  id: number;
  name: string;
  site_id: number;
}

export interface Network {
  id: number;
  name: string;
  site_id: number | null;
}
