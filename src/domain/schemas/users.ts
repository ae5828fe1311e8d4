import { type Static, Type } from 'typebox';
import { LIMITS } from '../limits';
import { ROLES, type Role } from '../roles';
import { SafeString } from '../text';
import { ClientSchema, IdSchema } from './sites';

/**
 * Request and reply schemas of user management (spec §7 "Auth and user": invite, list, edit,
 * activate, deactivate, re-invite, reset password), shared by the server's routes and the console.
 */

export const RoleSchema = Type.Enum([...ROLES]);

export const UserStatusSchema = Type.Enum(['active', 'inactive', 'invited']);

/** Site memberships; the server drops repeats. */
export const SiteIdsSchema = Type.Array(IdSchema, { maxItems: 1000 });

const UserNameSchema = SafeString({ minLength: 1, maxLength: LIMITS.nameMax });
const EmailSchema = SafeString({ minLength: 1, maxLength: LIMITS.emailMax, format: 'email' });

export const InviteBodySchema = Type.Object(
  {
    name: UserNameSchema,
    email: EmailSchema,
    user_role: RoleSchema,
    /** Required from a super-admin for every role but super-admin; others invite into their own client. */
    client_id: Type.Optional(nullableId()),
    site_ids: Type.Optional(SiteIdsSchema),
    group_of_sites_id: Type.Optional(nullableId()),
  },
  { additionalProperties: false },
);

export const EditUserBodySchema = Type.Object(
  {
    name: Type.Optional(UserNameSchema),
    user_role: Type.Optional(RoleSchema),
    /** Replaces the user's memberships among the sites the caller can see. */
    site_ids: Type.Optional(SiteIdsSchema),
  },
  { additionalProperties: false },
);

export const SetPasswordBodySchema = Type.Object(
  { password: SafeString({ minLength: LIMITS.passwordMin, maxLength: LIMITS.passwordMax }) },
  { additionalProperties: false },
);

export const UserIdParamsSchema = Type.Object({ id: IdSchema });

/** `sort=field,asc|desc` (DESIGN.md §3); name ascending by default. */
export const USER_SORT_FIELDS = ['name', 'email', 'user_role', 'status'] as const;

export const ListUsersQuerySchema = Type.Object({
  client_id: Type.Optional(IdSchema),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  search: Type.Optional(SafeString({ maxLength: LIMITS.nameMax })),
  sort: Type.Optional(Type.String({ pattern: `^(${USER_SORT_FIELDS.join('|')}),(asc|desc)$` })),
});

export const UserSitesQuerySchema = Type.Object({ client_id: Type.Optional(IdSchema) });

export const DEFAULT_USERS_PER_PAGE = 20;

export const ManagedUserSchema = Type.Object({
  id: IdSchema,
  key: IdSchema,
  name: Type.String(),
  email: Type.String(),
  user_role: RoleSchema,
  status: UserStatusSchema,
  client_id: Type.Union([IdSchema, Type.Null()]),
  group_of_sites_id: Type.Union([IdSchema, Type.Null()]),
  clients: Type.Array(ClientSchema),
});

export const PageMetaSchema = Type.Object({
  page: Type.Integer(),
  perPage: Type.Integer(),
  total: Type.Integer(),
});

/**
 * The roles a user may give when inviting or editing (DESIGN.md §4 "user management"): a
 * super-admin any, a client-admin any but super-admin, a site admin the roles of its sites.
 */
const ASSIGNABLE_ROLES: Record<Role, readonly Role[]> = {
  'super-admin': ROLES,
  'client-admin': ROLES.filter((role) => role !== 'super-admin'),
  'group-of-sites-admin': [
    'group-of-sites-admin',
    'group-of-sites-viewer',
    'crew-manager',
    'site-engineer',
    'safety-demo',
  ],
  'group-of-sites-viewer': [],
  'crew-manager': [],
  'site-engineer': [],
  'safety-demo': [],
};

export function assignableRoles(role: Role): readonly Role[] {
  return ASSIGNABLE_ROLES[role];
}

export function canAssignRole(role: Role, target: Role): boolean {
  return ASSIGNABLE_ROLES[role].includes(target);
}

function nullableId() {
  // `type: [...]` rather than anyOf: with the server's type coercion an anyOf would turn 0 into null.
  return Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, maximum: 2_147_483_647 });
}

export type InviteBody = Static<typeof InviteBodySchema>;
export type EditUserBody = Static<typeof EditUserBodySchema>;
export type SetPasswordBody = Static<typeof SetPasswordBodySchema>;
export type ListUsersQuery = Static<typeof ListUsersQuerySchema>;
export type ManagedUserReply = Static<typeof ManagedUserSchema>;
