import type { TNumber } from 'typebox';
import { type MaintenanceSettings, MaintenanceSettingsSchema } from './schemas/nodes';

/** The anchor-moved threshold's limits in metres, as MaintenanceSettingsSchema states them. */
const THRESHOLD = MaintenanceSettingsSchema.properties.anchorMovedThresholdMetres as TNumber & {
  minimum: number;
  maximum: number;
};
export const ANCHOR_MOVED_THRESHOLD_LIMITS_M = { min: THRESHOLD.minimum, max: THRESHOLD.maximum } as const;

export const MAINTENANCE_MESSAGES = {
  thresholdRange: `The anchor-moved threshold must be from ${THRESHOLD.minimum} to ${THRESHOLD.maximum} metres`,
  saved: 'Maintenance settings saved',
} as const;

/** The field errors of a site's maintenance settings (none: they may be stored). */
export function validateMaintenanceSettings(settings: MaintenanceSettings): Record<string, string> {
  const metres = settings.anchorMovedThresholdMetres;
  const { min, max } = ANCHOR_MOVED_THRESHOLD_LIMITS_M;
  if (!Number.isFinite(metres) || metres < min || metres > max)
    return { anchorMovedThresholdMetres: MAINTENANCE_MESSAGES.thresholdRange };
  return {};
}
