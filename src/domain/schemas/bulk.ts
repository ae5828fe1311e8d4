import { type Static, Type } from 'typebox';
import { BULK_KINDS, type BulkKind } from '../bulkKinds';
import { IdSchema } from './sites';

/**
 * Request and reply schemas of the Excel uploads (spec §7 uploads and the bulk sub-API), shared
 * by the server's routes and the console's API types.
 */

/** The id a client gives its upload (the bulk sub-API's paths end in it): a UUID or similar. */
export const UploadIdSchema = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9-]{7,63}$' });

export const BulkKindSchema = Type.Unsafe<BulkKind>({ type: 'string', enum: [...BULK_KINDS] });

export const UploadModeSchema = Type.Union([Type.Literal('draft'), Type.Literal('commit')]);

export const UploadStatusSchema = Type.Union([
  Type.Literal('validating'),
  Type.Literal('draft'),
  Type.Literal('committed'),
  Type.Literal('cancelled'),
  Type.Literal('failed'),
]);

const PersonSchema = Type.Object({ id: IdSchema, name: Type.String() });
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const UploadSummarySchema = Type.Object({
  id: Type.String(),
  site_id: IdSchema,
  kind: BulkKindSchema,
  file_name: Type.String(),
  status: UploadStatusSchema,
  row_count: Type.Integer(),
  error_row_count: Type.Integer(),
  /** The earlier upload of the same file (same bytes) to this site and kind. */
  same_file_as: nullable(Type.String()),
  same_file_uploaded_at: nullable(Type.String()),
  uploaded_by: nullable(PersonSchema),
  created_at: Type.String(),
  committed_at: nullable(Type.String()),
  committed_by: nullable(PersonSchema),
});

export const UploadRowErrorSchema = Type.Object({ column: Type.String(), message: Type.String() });

export const UploadRowSchema = Type.Object({
  row_number: Type.Integer(),
  cells: Type.Record(Type.String(), Type.String()),
  errors: Type.Array(UploadRowErrorSchema),
});

export const UploadDraftSchema = Type.Object({
  upload: UploadSummarySchema,
  rows: Type.Array(UploadRowSchema),
});

export const UploadQuerySchema = Type.Object({
  mode: Type.Optional(UploadModeSchema),
  /** The main API's upload calls take the client's upload id here (the bulk sub-API in its path). */
  upload_id: Type.Optional(UploadIdSchema),
});

export const UploadRowsQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  errors_only: Type.Optional(Type.Boolean()),
});

export const UploadListQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  kind: Type.Optional(BulkKindSchema),
});

export type UploadSummary = Static<typeof UploadSummarySchema>;
export type UploadRow = Static<typeof UploadRowSchema>;
export type UploadRowError = Static<typeof UploadRowErrorSchema>;
export type UploadDraft = Static<typeof UploadDraftSchema>;
export type UploadMode = Static<typeof UploadModeSchema>;
