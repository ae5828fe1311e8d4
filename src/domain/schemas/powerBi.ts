import { type Static, Type } from 'typebox';
import { EMBED_URL_MAX } from '../powerBi';
import { SafeString } from '../text';
import { IdSchema, NameSchema } from './sites';

/**
 * Request and reply schemas of a site's Power BI report links (spec §7 "Clients and sites":
 * GET and POST /sites/{id}/power-bi, POST /sites/{id}/power-bi/{id}). The schema holds the URL
 * to its length and the text rule; the embed URL rule (src/domain/powerBi.ts) does the rest.
 */

export const PowerBiReportSchema = Type.Object({
  id: Type.Integer(),
  site_id: Type.Integer(),
  name: Type.String(),
  embed_url: Type.String(),
  is_active: Type.Boolean(),
  created_by: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type PowerBiReport = Static<typeof PowerBiReportSchema>;

const EmbedUrlSchema = SafeString({ minLength: 1, maxLength: EMBED_URL_MAX });

export const CreatePowerBiReportBodySchema = Type.Object(
  {
    name: NameSchema,
    embed_url: EmbedUrlSchema,
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CreatePowerBiReportBody = Static<typeof CreatePowerBiReportBodySchema>;

/** An edit sends what changes: a new name, a new link, or `is_active` to deactivate or activate it. */
export const EditPowerBiReportBodySchema = Type.Object(
  {
    name: Type.Optional(NameSchema),
    embed_url: Type.Optional(EmbedUrlSchema),
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type EditPowerBiReportBody = Static<typeof EditPowerBiReportBodySchema>;

export const PowerBiReportParamsSchema = Type.Object({ id: IdSchema, reportId: IdSchema });
