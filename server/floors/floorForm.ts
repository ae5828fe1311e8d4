import type { MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Corner } from '../../src/domain/floor';
import {
  type FieldErrors,
  type FloorFields,
  type FloorFormInput,
  floorMessages,
  validateFloorForm,
} from '../../src/domain/floorValidation';
import { messages } from '../../src/domain/messages';
import { fieldLabel } from '../http/errorHandler';
import { HttpError, unprocessable } from '../http/errors';
import { type SniffedImage, sniffImage } from './imageSniff';

export const BLUEPRINT_FIELD = 'blueprint';
const CORNER_FIELD = /^coordinates\[([abcd])\]\[(lat|long)\]$/;
const TEXT_FIELDS = new Set(['name', 'altitude', 'category', 'distance', 'cellSizeMetres']);

export interface FloorForm {
  fields: FloorFields;
  image: { bytes: Buffer; sniffed: SniffedImage } | null;
}

const imageRefused = (status: 413 | 415) => new HttpError(status, floorMessages.image);

/**
 * Reads a floor's multipart form (spec §3: flattened, trimmed corners) and checks it before
 * anything is written: a wrong image type is 415, a too large one 413 (both with spec §5's image
 * message), field errors 422 keyed like `coordinates.a.lat`.
 */
export async function readFloorForm(request: FastifyRequest, imageRequired: boolean): Promise<FloorForm> {
  if (!request.isMultipart()) throw new HttpError(415, 'Request must be multipart/form-data');
  const input: FloorFormInput & { coordinates: Partial<Record<Corner, { lat?: string; long?: string }>> } = {
    coordinates: {},
  };
  const unknown: FieldErrors = {};
  let file: { bytes: Buffer; fileName: string } | null = null;

  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname !== BLUEPRINT_FIELD) unknown[part.fieldname] = notAllowed(part.fieldname);
        // A form whose file input was left empty sends an empty, nameless file.
        else if (bytes.length > 0 || part.filename) file = { bytes, fileName: part.filename };
        continue;
      }
      readField(part, input, unknown);
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT') throw imageRefused(413);
    if ((error as { statusCode?: number }).statusCode === 413)
      throw new HttpError(413, 'Request is too large');
    throw new HttpError(400, 'Malformed request');
  }

  let image: FloorForm['image'] = null;
  if (file) {
    const sniffed = sniffImage(file.bytes);
    const extension = /\.([^.]+)$/.exec(file.fileName)?.[1]?.toLowerCase();
    if (!sniffed || (extension !== undefined && !['png', 'jpg', 'jpeg'].includes(extension)))
      throw imageRefused(415);
    image = { bytes: file.bytes, sniffed };
  }

  const { value, errors } = validateFloorForm(input);
  const all: FieldErrors = { ...unknown, ...errors };
  if (imageRequired && !image) all[BLUEPRINT_FIELD] = messages.required('Blueprint');
  if (Object.keys(all).length > 0 || !value) throw unprocessable(all);
  return { fields: value, image };
}

function notAllowed(field: string): string {
  return `${fieldLabel(field)} is not allowed`;
}

function readField(part: MultipartValue, input: FloorFormInput, unknown: FieldErrors): void {
  const name = part.fieldname;
  const value = typeof part.value === 'string' ? part.value : String(part.value ?? '');
  if (part.valueTruncated) {
    unknown[name] = `${fieldLabel(name)} is invalid`;
    return;
  }
  const corner = CORNER_FIELD.exec(name);
  if (corner) {
    const key = corner[1] as Corner;
    const coordinates = input.coordinates as Record<Corner, { lat?: string; long?: string }>;
    coordinates[key] = { ...coordinates[key], [corner[2]]: value };
  } else if (TEXT_FIELDS.has(name)) {
    (input as Record<string, string>)[name] = value;
  } else {
    unknown[name] = notAllowed(name);
  }
}
