import { type Static, Type } from 'typebox';
import { LIMITS } from '../limits';
import { ROLES } from '../roles';
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

/** A site as a user's row names it. */
export const SiteRefSchema = Type.Object({ id: IdSchema, name: Type.String() });

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
  /** The sites the user reaches (as GET /users/{id}/sites) that the caller sees, by name. */
  sites: Type.Array(SiteRefSchema),
  /** Its memberships among those sites: what an edit's site_ids replaces. */
  site_ids: Type.Array(IdSchema),
  /** It has a password: it can be activated, no longer re-invited. */
  registered: Type.Boolean(),
});

export const PageMetaSchema = Type.Object({
  page: Type.Integer(),
  perPage: Type.Integer(),
  total: Type.Integer(),
});

function nullableId() {
  // `type: [...]` rather than anyOf: with the server's type coercion an anyOf would turn 0 into null.
  return Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, maximum: 2_147_483_647 });
}

export type InviteBody = Static<typeof InviteBodySchema>;
export type EditUserBody = Static<typeof EditUserBodySchema>;
export type SetPasswordBody = Static<typeof SetPasswordBodySchema>;
export type ListUsersQuery = Static<typeof ListUsersQuerySchema>;
export type ManagedUserReply = Static<typeof ManagedUserSchema>;
