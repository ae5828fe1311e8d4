/**
 * The radio model of installation planning: how loud an anchor is heard at a distance and through
 * walls, and what a cell needs to be positioned. Defaults and their sources: docs/decisions.md
 * "Installation: the radio model".
 */

export const WALL_MATERIALS = ['drywall', 'brick', 'concrete', 'glass', 'metal'] as const;
export type WallMaterial = (typeof WALL_MATERIALS)[number];

export interface RadioModel {
  /** Carrier frequency in MHz (ITU-R P.1238: L = 20 log10 f + N log10 d + Lf(n) − 28, d in m). */
  frequencyMHz: number;
  /** N of ITU-R P.1238: the distance power loss coefficient. */
  distancePowerLossCoefficient: number;
  txPowerDbm: number;
  /** A cell "hears" an anchor when the predicted RSSI is at least this. */
  rxSensitivityDbm: number;
  /** 2-D positioning fails where the DOP of the anchors heard is over this. */
  maxDop: number;
  /** What one wall segment of each material takes off a link crossing it, in dB. */
  wallAttenuationDb: Record<WallMaterial, number>;
}

/**
 * 2.4 GHz (the demo network's band), N = 30 (P.1238 Table 2, office, 2.4 GHz), 0 dBm transmit
 * and −90 dBm sensitivity as the demo's simulated anchors (server/simulator/radioLinks.ts).
 */
export const DEFAULT_RADIO_MODEL: RadioModel = Object.freeze({
  frequencyMHz: 2440,
  distancePowerLossCoefficient: 30,
  txPowerDbm: 0,
  rxSensitivityDbm: -90,
  maxDop: 5,
  wallAttenuationDb: Object.freeze({ drywall: 3, brick: 8, concrete: 12, glass: 3, metal: 26 }),
});

/** 2-D positioning from ranges to anchors needs at least this many anchors heard. */
export const MIN_ANCHORS_FOR_POSITIONING = 4;

/** Closer than this an anchor is as loud as at this distance (the model's reference distance). */
export const MIN_PATH_LOSS_DISTANCE_M = 1;

/** ITU-R P.1238 site-general path loss on one floor (Lf = 0), in dB; the distance clamped to >= 1 m. */
export function pathLossDb(model: RadioModel, distanceM: number): number {
  const metres = Math.max(MIN_PATH_LOSS_DISTANCE_M, distanceM);
  return 20 * Math.log10(model.frequencyMHz) + model.distancePowerLossCoefficient * Math.log10(metres) - 28;
}

type NumberField = Exclude<keyof RadioModel, 'wallAttenuationDb'>;

/** The accepted range of each setting: wide enough for any real radio, narrow enough to catch typos. */
export const RADIO_MODEL_LIMITS: Readonly<Record<NumberField, { min: number; max: number }>> = {
  frequencyMHz: { min: 300, max: 100_000 },
  distancePowerLossCoefficient: { min: 10, max: 60 },
  txPowerDbm: { min: -40, max: 30 },
  rxSensitivityDbm: { min: -130, max: -30 },
  maxDop: { min: 1, max: 50 },
};
export const WALL_ATTENUATION_LIMITS_DB = { min: 0, max: 100 } as const;

const range = (label: string, field: NumberField, unit: string) => {
  const { min, max } = RADIO_MODEL_LIMITS[field];
  return `${label} must be a number from ${min} to ${max}${unit}`;
};

const materialLabel: Record<WallMaterial, string> = {
  drywall: 'Drywall',
  brick: 'Brick',
  concrete: 'Concrete',
  glass: 'Glass',
  metal: 'Metal',
};

/** The fixed texts radioModelProblems answers with (keyed as server.radio.<name>). */
export const RADIO_MODEL_MESSAGES = {
  notAnObject: 'The radio settings must be an object',
  frequencyMHz: range('Frequency', 'frequencyMHz', ' MHz'),
  distancePowerLossCoefficient: range('Distance power loss coefficient', 'distancePowerLossCoefficient', ''),
  txPowerDbm: range('Transmit power', 'txPowerDbm', ' dBm'),
  rxSensitivityDbm: range('Receiver sensitivity', 'rxSensitivityDbm', ' dBm'),
  maxDop: range('Maximum DOP', 'maxDop', ''),
  sensitivityAboveTx: 'Receiver sensitivity must be below the transmit power',
  wallAttenuationDb: 'Wall attenuation must give a number of dB for each material',
  ...(Object.fromEntries(
    WALL_MATERIALS.map((material) => [
      `wall_${material}`,
      `${materialLabel[material]} attenuation must be a number from ${WALL_ATTENUATION_LIMITS_DB.min} to ${WALL_ATTENUATION_LIMITS_DB.max} dB`,
    ]),
  ) as Record<`wall_${WallMaterial}`, string>),
} as const;

const NUMBER_FIELDS = Object.keys(RADIO_MODEL_LIMITS) as NumberField[];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const inRange = (value: unknown, limits: { min: number; max: number }): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= limits.min && value <= limits.max;

/**
 * The problems of a whole radio model by field (`frequencyMHz`, `wallAttenuationDb.concrete`, …),
 * {} when it is valid. Fields it does not know are ignored (parseRadioModel drops them).
 */
export function radioModelProblems(value: unknown): Record<string, string> {
  if (!isRecord(value)) return { settings: RADIO_MODEL_MESSAGES.notAnObject };
  const problems: Record<string, string> = {};
  for (const field of NUMBER_FIELDS)
    if (!inRange(value[field], RADIO_MODEL_LIMITS[field])) problems[field] = RADIO_MODEL_MESSAGES[field];
  if (
    !problems.txPowerDbm &&
    !problems.rxSensitivityDbm &&
    (value.rxSensitivityDbm as number) >= (value.txPowerDbm as number)
  )
    problems.rxSensitivityDbm = RADIO_MODEL_MESSAGES.sensitivityAboveTx;
  const walls = value.wallAttenuationDb;
  if (!isRecord(walls)) problems.wallAttenuationDb = RADIO_MODEL_MESSAGES.wallAttenuationDb;
  else
    for (const material of WALL_MATERIALS)
      if (!inRange(walls[material], WALL_ATTENUATION_LIMITS_DB))
        problems[`wallAttenuationDb.${material}`] = RADIO_MODEL_MESSAGES[`wall_${material}`];
  return problems;
}

/** A clean copy of a valid radio model (unknown fields dropped), or null when it has problems. */
export function parseRadioModel(value: unknown): RadioModel | null {
  if (Object.keys(radioModelProblems(value)).length > 0) return null;
  const record = value as RadioModel;
  return {
    frequencyMHz: record.frequencyMHz,
    distancePowerLossCoefficient: record.distancePowerLossCoefficient,
    txPowerDbm: record.txPowerDbm,
    rxSensitivityDbm: record.rxSensitivityDbm,
    maxDop: record.maxDop,
    wallAttenuationDb: Object.fromEntries(
      WALL_MATERIALS.map((material) => [material, record.wallAttenuationDb[material]]),
    ) as Record<WallMaterial, number>,
  };
}

/**
 * The farthest distance (m) at which an anchor can be heard in free space: walls only lower the
 * signal, so a cell farther than this never hears it. Infinity when it is heard at any distance
 * (N of 0 is out of range, so this is finite for any valid model).
 */
export function freeSpaceRangeM(model: RadioModel): number {
  const budget = model.txPowerDbm - model.rxSensitivityDbm - (20 * Math.log10(model.frequencyMHz) - 28);
  if (budget < 0) return 0;
  if (!(model.distancePowerLossCoefficient > 0)) return Number.POSITIVE_INFINITY;
  return Math.max(MIN_PATH_LOSS_DISTANCE_M, 10 ** (budget / model.distancePowerLossCoefficient));
}
