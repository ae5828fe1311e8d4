import { type Static, Type } from 'typebox';
import { LIMITS } from '../limits';
import { REJECTION_REASONS } from '../live';
import { SafeString } from '../text';
import { IdSchema } from './sites';

/**
 * Schemas of the HTTP ingest (`POST /api/ingest/{siteId}/positions`, DESIGN §5) and of the device
 * tokens gateways present to it.
 */

/** Most entries one HTTP ingest call may carry; more is 413. */
export const INGEST_BATCH_MAX = 5000;

/** One helmet position, as on `sitewatch/{siteId}/positions`; entries are checked one by one. */
export const PositionMessageSchema = Type.Object({
  tag: SafeString({ minLength: 1, nonBlank: true }),
  ts: Type.String({ format: 'date-time' }),
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  long: Type.Number({ minimum: -180, maximum: 180 }),
  floorId: IdSchema,
  online: Type.Boolean(),
  active: Type.Boolean(),
});

/**
 * The body: one position or an array. Only the outer shape is validated here: each entry is
 * judged on its own (src/domain/ingestValidation.ts), so one bad entry never refuses the batch.
 */
export const IngestPositionsBodySchema = Type.Union([
  Type.Object({}, { description: 'one position' }),
  Type.Array(Type.Unknown(), { description: 'positions' }),
]);

export const IngestParamsSchema = Type.Object({ siteId: IdSchema });

const RejectedCountsSchema = Type.Object(
  Object.fromEntries(
    REJECTION_REASONS.map((reason) => [reason, Type.Optional(Type.Integer({ minimum: 1 }))]),
  ),
);

export const IngestResultSchema = Type.Object({
  /** Entries stored (a redelivered one is stored once and counted). */
  accepted: Type.Integer({ minimum: 0 }),
  /** Dropped entries per reason; reasons with none are absent. */
  rejected: RejectedCountsSchema,
});

export const DeviceTokenSchema = Type.Object({
  id: IdSchema,
  site_id: IdSchema,
  label: Type.String(),
  created_at: Type.String(),
  revoked_at: Type.Union([Type.String(), Type.Null()]),
});

/** The reply to creating a token: the only time its secret is shown. */
export const CreatedDeviceTokenSchema = Type.Object({
  ...DeviceTokenSchema.properties,
  token: Type.String(),
});

export const CreateDeviceTokenBodySchema = Type.Object({
  label: SafeString({ minLength: 1, maxLength: LIMITS.nameMax }),
});

export const DeviceTokenParamsSchema = Type.Object({ id: IdSchema, tokenId: IdSchema });

export type PositionMessageBody = Static<typeof PositionMessageSchema>;
export type IngestResult = Static<typeof IngestResultSchema>;
export type DeviceToken = Static<typeof DeviceTokenSchema>;
export type CreatedDeviceToken = Static<typeof CreatedDeviceTokenSchema>;
export type CreateDeviceTokenBody = Static<typeof CreateDeviceTokenBodySchema>;
