import { type Static, Type } from 'typebox';
import type { EndEvacuationRequest, StartEvacuationRequest } from '../evacuation';
import type { LiveFeedRequest } from '../liveFeeds';
import { SafeString } from '../text';
import { IdSchema } from './sites';

/**
 * What the console sends on the live socket (spec §7): the server parses every payload with
 * these, and the console types its requests by them.
 */

const strict = { additionalProperties: false } as const;

/** client → server `subscribe` / `unsubscribe` (src/domain/liveFeeds.ts). */
export const LiveFeedRequestSchema = Type.Union([
  Type.Object(
    {
      feed: Type.Union([Type.Literal('site'), Type.Literal('evacuation'), Type.Literal('incidents')]),
      siteId: IdSchema,
    },
    strict,
  ),
  Type.Object({ feed: Type.Literal('floor'), siteId: IdSchema, floorId: IdSchema }, strict),
]);
const _feedAgrees: Static<typeof LiveFeedRequestSchema> extends LiveFeedRequest ? true : never = true;

const Ids = Type.Array(IdSchema, { maxItems: 1000 });

/** client → server `startEvacuation`; a list left out is empty, an id left out is null. */
export const StartEvacuationRequestSchema = Type.Object({
  siteId: IdSchema,
  floorIds: Type.Optional(Ids),
  zoneIds: Type.Optional(Ids),
  assemblyZoneIds: Type.Optional(Ids),
  safeZone: Type.Optional(Type.Union([IdSchema, Type.Null()])),
  gateWayId: Type.Optional(Type.Union([IdSchema, Type.Null()])),
});
const _startAgrees: StartEvacuationRequest extends Static<typeof StartEvacuationRequestSchema>
  ? true
  : never = true;

/** client → server `endEvacuation`. */
export const EndEvacuationRequestSchema = Type.Object({
  siteId: IdSchema,
  evacuationSessionId: SafeString({ minLength: 1, maxLength: 100 }),
});
const _endAgrees: Static<typeof EndEvacuationRequestSchema> extends EndEvacuationRequest ? true : never =
  true;
