import { Type } from 'typebox';

/**
 * The `data` of a reply the caller does not read (a delete, an edit answered by a refetch): any
 * value passes, so only the envelope and the status decide.
 */
export const UnreadDataSchema = Type.Unknown();

/** `data` of a create that answers only the new row's id. */
export const CreatedIdSchema = Type.Object({ id: Type.Integer() });
