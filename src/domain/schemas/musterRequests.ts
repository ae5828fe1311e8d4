import { Type } from 'typebox';
import { SafeString } from '../text';
import { IdSchema } from './sites';

/**
 * What a marshal sends during a running evacuation (POST /api/safety/evacuation/…, docs/api.md):
 * marks, undoing one, a person without a helmet, a larger area, a redirect.
 */

const session = { siteId: IdSchema, evacuationSessionId: SafeString({ minLength: 1, maxLength: 100 }) };
const strict = { additionalProperties: false } as const;
// Lengths are checked by src/domain/rollCall.ts so the refusal is worded as the form words it.
const Text = SafeString({ maxLength: 1000 });

export const MarkRequestSchema = Type.Object(
  { ...session, workerId: Type.Optional(IdSchema), rollPersonId: Type.Optional(IdSchema), reason: Text },
  strict,
);

export const UnmarkRequestSchema = Type.Object({ ...session, markId: IdSchema }, strict);

export const RollPersonRequestSchema = Type.Object(
  {
    ...session,
    name: Text,
    company: Type.Optional(Text),
    reason: Type.Optional(Type.Union([Text, Type.Null()])),
  },
  strict,
);

const Ids = Type.Array(IdSchema, { maxItems: 1000 });

export const ExtendAreaRequestSchema = Type.Object(
  { ...session, floorIds: Type.Optional(Ids), zoneIds: Type.Optional(Ids) },
  strict,
);

export const RedirectRequestSchema = Type.Object(
  { ...session, unsafeZoneId: IdSchema, redirectZoneId: IdSchema },
  strict,
);
