import { distanceMatches } from './distance';
import { CORNERS, type Corner, type FloorCorners } from './floor';
import { messages } from './messages';
import { nameProblem } from './nameRule';
import { type Point, polygonProblem } from './polygon';
import { controlCharactersMessage, hasControlCharacters } from './text';

/**
 * The floor form's rules (spec §3 Floor, §5 corner coordinates), shared by the console's form
 * and the server's multipart routes. Values arrive as strings and are trimmed first.
 */

export const floorMessages = {
  latitude: 'Latitude should be number between -90 and 90',
  longitude: 'Longitude should be number between -180 and 180',
  altitude: 'Altitude should be a number',
  corners: 'Corners a, b, c and d must form a quadrilateral',
  distance: "Distance doesn't match the distance between corners a and b",
  cellSize: 'Cell size should be a number of metres between 0.25 and 10',
  image: "PNG, JPEG, JPG formats are allowed, image can't exceed 3MB",
  created: 'Floor Created Successfully',
  updated: 'Floor Updated Successfully',
  duplicated: 'Floor Duplicated Successfully',
  deleted: 'Floor deleted successfully',
} as const;

export const FLOOR_IMAGE_MAX_BYTES = 3 * 1024 * 1024;
export const FLOOR_CATEGORY_MAX = 100;
/** The analytics grid's cell edge a floor may set (metres; src/domain/geo.ts `floorGrid`). */
export const CELL_SIZE_MIN_M = 0.25;
export const CELL_SIZE_MAX_M = 10;

type Raw = string | number | null | undefined;

/** The form's values as typed: strings (or numbers from a console form), any of them missing. */
export interface FloorFormInput {
  name?: Raw;
  altitude?: Raw;
  category?: Raw;
  /** Optional: the metres between corners a and b as measured on site (spec §5 distance check). */
  distance?: Raw;
  /** Optional: the analytics grid's cell edge in metres; blank keeps the current one (1 m when new). */
  cellSizeMetres?: Raw;
  coordinates?: Partial<Record<Corner, { lat?: Raw; long?: Raw } | undefined>>;
}

export interface FloorFields {
  name: string;
  altitude: number;
  category: string;
  coordinates: FloorCorners;
  /** Absent when the form left it blank. */
  cellSizeMetres?: number;
}

export type FieldErrors = Record<string, string>;

const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** A trimmed decimal number, or undefined for blank and NaN for anything else ("0x1", "1,5"). */
export function parseDecimal(raw: Raw): number | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : Number.NaN;
  const text = raw.trim();
  if (text === '') return undefined;
  return DECIMAL.test(text) ? Number(text) : Number.NaN;
}

function ranged(
  raw: Raw,
  limit: number,
  label: string,
  outOfRange: string,
  errors: FieldErrors,
  key: string,
) {
  const value = parseDecimal(raw);
  if (value === undefined) errors[key] = messages.required(label);
  else if (Number.isNaN(value) || value < -limit || value > limit) errors[key] = outOfRange;
  else return value;
  return undefined;
}

/** Corner coordinates a–d; errors keyed `coordinates.a.lat` and so on. */
export function validateCorners(input: FloorFormInput['coordinates']): {
  corners: FloorCorners | null;
  errors: FieldErrors;
} {
  const errors: FieldErrors = {};
  const corners = {} as FloorCorners;
  for (const corner of CORNERS) {
    const raw = input?.[corner];
    const lat = ranged(raw?.lat, 90, 'Latitude', floorMessages.latitude, errors, `coordinates.${corner}.lat`);
    const long = ranged(
      raw?.long,
      180,
      'Longitude',
      floorMessages.longitude,
      errors,
      `coordinates.${corner}.long`,
    );
    if (lat !== undefined && long !== undefined) corners[corner] = { lat, long };
  }
  if (Object.keys(errors).length > 0) return { corners: null, errors };
  // a, b, c, d go round the image; crossed or collapsed corners cannot be mapped onto it.
  if (polygonProblem(cornerRing(corners)) !== null)
    return { corners: null, errors: { coordinates: floorMessages.corners } };
  return { corners, errors };
}

/** The corners as a [long, lat] ring a → b → c → d, the frame zones are checked in. */
export function cornerRing(corners: FloorCorners): Point[] {
  return CORNERS.map((corner) => [corners[corner].long, corners[corner].lat] as const);
}

/** The whole floor form: name, altitude, category, the corners and the optional cell size. */
export function validateFloorForm(input: FloorFormInput): { value: FloorFields | null; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  const nameRuleProblem = nameProblem('Name', name);
  if (nameRuleProblem) errors.name = nameRuleProblem;
  else if (hasControlCharacters(name)) errors.name = controlCharactersMessage('Name');

  const altitude = parseDecimal(input.altitude);
  if (altitude === undefined) errors.altitude = messages.required('Altitude');
  else if (Number.isNaN(altitude) || Math.abs(altitude) > 1_000_000) errors.altitude = floorMessages.altitude;

  const category = typeof input.category === 'string' ? input.category.trim() : '';
  if (category.length > FLOOR_CATEGORY_MAX)
    errors.category = messages.maxChars('Category', FLOOR_CATEGORY_MAX);
  else if (hasControlCharacters(category)) errors.category = controlCharactersMessage('Category');

  const { corners, errors: cornerErrors } = validateCorners(input.coordinates);
  Object.assign(errors, cornerErrors);
  const distance = parseDecimal(input.distance);
  if (distance !== undefined && corners && !distanceMatches(distance, corners.a, corners.b))
    errors.distance = floorMessages.distance;
  const cellSizeMetres = parseDecimal(input.cellSizeMetres);
  if (
    cellSizeMetres !== undefined &&
    (Number.isNaN(cellSizeMetres) || cellSizeMetres < CELL_SIZE_MIN_M || cellSizeMetres > CELL_SIZE_MAX_M)
  )
    errors.cellSizeMetres = floorMessages.cellSize;
  if (Object.keys(errors).length > 0 || !corners || altitude === undefined) return { value: null, errors };
  return {
    value: {
      name,
      altitude,
      category,
      coordinates: corners,
      ...(cellSizeMetres === undefined ? {} : { cellSizeMetres }),
    },
    errors,
  };
}
