import { approvalSettingsProblems, DEFAULT_APPROVAL_SETTINGS } from './anchorApproval';
import {
  DEFAULT_RADIO_MODEL,
  parseRadioModel,
  radioModelProblems,
  type WALL_MATERIALS,
} from './radio/radioModel';
import type { ApprovalSettings, RadioSettings, RadioSettingsBody } from './schemas/installation';

/**
 * A site's installation radio settings as stored (site_radio_settings.settings): the radio model of
 * the coverage simulation and the evidence an anchor approval checks. A site without a row, or a
 * stored part that no longer passes the rules, uses the defaults.
 */

export function defaultRadioSettings(): RadioSettings {
  return {
    model: { ...DEFAULT_RADIO_MODEL, wallAttenuationDb: { ...DEFAULT_RADIO_MODEL.wallAttenuationDb } },
    approval: { ...DEFAULT_APPROVAL_SETTINGS },
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function approvalOf(value: unknown): ApprovalSettings | null {
  if (!isRecord(value)) return null;
  const approval = { tolerance_m: value.tolerance_m, min_link_quality: value.min_link_quality };
  if (typeof approval.tolerance_m !== 'number' || typeof approval.min_link_quality !== 'number') return null;
  const checked = approval as ApprovalSettings;
  return Object.keys(approvalSettingsProblems(checked)).length === 0 ? checked : null;
}

/** The settings a stored value stands for, each part its default when missing or invalid. */
export function radioSettingsOf(stored: unknown): RadioSettings {
  const defaults = defaultRadioSettings();
  if (!isRecord(stored)) return defaults;
  return {
    model: parseRadioModel(stored.model) ?? defaults.model,
    approval: approvalOf(stored.approval) ?? defaults.approval,
  };
}

/** The stored settings with the body's parts put in (a part left out keeps its value). */
export function mergeRadioSettings(current: RadioSettings, body: RadioSettingsBody): RadioSettings {
  return { model: body.model ?? current.model, approval: body.approval ?? current.approval };
}

/** Field errors by `model.<field>` and `approval.<field>`; {} when the settings may be stored. */
export function radioSettingsProblems(settings: RadioSettings): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const [field, message] of Object.entries(radioModelProblems(settings.model)))
    problems[`model.${field}`] = message;
  for (const [field, message] of Object.entries(approvalSettingsProblems(settings.approval)))
    problems[`approval.${field}`] = message;
  return problems;
}

/** A wall's attenuation in the settings' model, in dB. */
export function wallAttenuation(settings: RadioSettings, material: (typeof WALL_MATERIALS)[number]): number {
  return settings.model.wallAttenuationDb[material];
}
