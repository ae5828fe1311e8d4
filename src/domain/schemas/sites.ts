import { type Static, type TSchema, Type } from 'typebox';
import { LIMITS } from '../limits';
import { SafeString } from '../text';

/**
 * Request and reply schemas of clients, sites, buildings and networks (spec §7 "Clients and
 * sites"), shared by the server's routes and the console's API types.
 */

/** The largest PostgreSQL `integer`, so the largest row id. */
export const MAX_ROW_ID = 2_147_483_647;

/** A row id: a positive PostgreSQL `integer`, so a larger number is a 422, not a 500. */
export const IdSchema = Type.Integer({ minimum: 1, maximum: MAX_ROW_ID });

/** A display name; whitespace-only names are refused by the route with "Name is required". */
export const NameSchema = SafeString({ minLength: 1, maxLength: LIMITS.nameMax });

export const TimezoneSchema = SafeString({ minLength: 1, maxLength: LIMITS.timezoneMax });

export const ClientSchema = Type.Object({ id: IdSchema, name: Type.String() });

export const SiteSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  timezone: Type.String(),
  client_id: IdSchema,
  group_of_sites_id: Type.Union([IdSchema, Type.Null()]),
});

export const BuildingSchema = Type.Object({ id: IdSchema, name: Type.String(), site_id: IdSchema });

export const NetworkSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  site_id: Type.Union([IdSchema, Type.Null()]),
});

export const IdParamsSchema = Type.Object({ id: IdSchema });
export const ClientIdParamsSchema = Type.Object({ clientId: IdSchema });

export const CreateClientBodySchema = Type.Object({ name: NameSchema });

export const CreateSiteBodySchema = Type.Object({
  client_id: IdSchema,
  name: SafeString({ minLength: 1, maxLength: LIMITS.siteNameMax }),
  timezone: TimezoneSchema,
  // `type: ['integer', 'null']` rather than anyOf: with the server's type coercion an anyOf
  // would turn 0 into null instead of refusing it.
  group_of_sites_id: Type.Optional(nullableId()),
});

export const CreateBuildingBodySchema = Type.Object({ name: NameSchema });

/** `site_id: null` unassigns the network. */
export const AssignNetworkBodySchema = Type.Object({ site_id: nullableId() });

/**
 * The reply envelope of DESIGN.md §3 around `data`, shaped like `Envelope<T>` of
 * src/domain/user.ts so the server's `ok()` satisfies it.
 */
export function successOf<T extends TSchema>(data: T) {
  return Type.Object({
    status: Type.Union([Type.Literal('success'), Type.Literal('error')]),
    message: Type.Optional(Type.String()),
    // The text's i18n key and values (server/http/messageKeys.ts), else the serializer drops them.
    messageKey: Type.Optional(Type.String()),
    messageParams: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
    data: Type.Optional(data),
  });
}

function nullableId() {
  return Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, maximum: 2_147_483_647 });
}

export type ClientReply = Static<typeof ClientSchema>;
export type SiteReply = Static<typeof SiteSchema>;
export type BuildingReply = Static<typeof BuildingSchema>;
export type NetworkReply = Static<typeof NetworkSchema>;
export type CreateClientBody = Static<typeof CreateClientBodySchema>;
export type CreateSiteBody = Static<typeof CreateSiteBodySchema>;
export type CreateBuildingBody = Static<typeof CreateBuildingBodySchema>;
export type AssignNetworkBody = Static<typeof AssignNetworkBodySchema>;
