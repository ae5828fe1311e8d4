import { LINK_QUALITY, SILENT_AFTER_S } from './nodeHealth';
import type { ApprovalSettings } from './schemas/installation';

/**
 * The evidence an anchor approval checks (issue 19, spec §4): the position the network computed
 * for the installed anchor is within the site's tolerance of where it was meant to go, and its live
 * link quality reaches the site's threshold. A failed check needs an override with a reason. One
 * rule for the server (the authority) and the console (which shows the checks before saving).
 */

export const DEFAULT_APPROVAL_SETTINGS: ApprovalSettings = {
  tolerance_m: 0.5,
  min_link_quality: LINK_QUALITY.warning,
};

/** What a site may set: a tolerance finer than a survey is pointless, a looser one is no check. */
export const APPROVAL_SETTING_LIMITS = {
  toleranceM: { min: 0.05, max: 10 },
  minLinkQuality: { min: 0, max: 100 },
} as const;

/**
 * A link quality older than this is not live: a node silent this long is "bad" by nodeHealth, and
 * the quality it last reported says nothing of its link now.
 */
export const LIVE_LINK_QUALITY_WINDOW_S = SILENT_AFTER_S.bad;

/** The link quality the evidence may use: the latest reported, or null when none is recent enough. */
export function liveLinkQuality(
  linkQuality: number | null,
  reportedAtMs: number | null,
  nowMs: number,
): number | null {
  if (linkQuality === null || reportedAtMs === null) return null;
  return nowMs - reportedAtMs <= LIVE_LINK_QUALITY_WINDOW_S * 1000 ? linkQuality : null;
}

export const APPROVAL_CHECKS = ['position', 'link_quality'] as const;
export type ApprovalCheck = (typeof APPROVAL_CHECKS)[number];

export interface ApprovalEvidence {
  /** The installed anchor's name (its wnt_inventory_id). */
  installedName: string;
  /**
   * The planning anchor's name (anchor_id) it is compared with; null when it is approved at
   * coordinates placed by hand, which are then what it is compared with.
   */
  planningName: string | null;
  /** Metres between the computed position and the planning anchor (or placed point); null: no position reported. */
  distanceM: number | null;
  /** The live link quality (0–100, liveLinkQuality); null: none reported recently. */
  linkQuality: number | null;
}

export interface FailedApprovalCheck {
  check: ApprovalCheck;
  message: string;
}

/** Up to two decimals, without trailing zeros: 1.2, 0.54, 3. */
export function approvalNumber(value: number): string {
  return String(Number(value.toFixed(2)));
}

/** The approval texts without values (keyed as server.approval.<name>). */
export const APPROVAL_FIXED_MESSAGES = {
  overrideReasonRequired: 'An override reason is required when a check fails',
  toleranceRange: `The tolerance must be from ${APPROVAL_SETTING_LIMITS.toleranceM.min} to ${APPROVAL_SETTING_LIMITS.toleranceM.max} metres`,
  minLinkQualityRange: `The minimum link quality must be from ${APPROVAL_SETTING_LIMITS.minLinkQuality.min} to ${APPROVAL_SETTING_LIMITS.minLinkQuality.max}`,
} as const;

/** Every approval text; the ones with values are templates of src/domain/messageCatalogCore.ts. */
export const approvalMessages = {
  ...APPROVAL_FIXED_MESSAGES,
  tooFar: (installed: string, distance: string, planned: string, tolerance: string) =>
    `${installed} is ${distance} m from ${planned}; the tolerance is ${tolerance} m`,
  tooFarFromPlaced: (installed: string, distance: string, tolerance: string) =>
    `${installed} is ${distance} m from where it is placed; the tolerance is ${tolerance} m`,
  noPosition: (installed: string) => `${installed} has reported no position`,
  weakLink: (quality: string, minimum: string) => `Link quality ${quality} is below the site's ${minimum}`,
  noLinkQuality: (installed: string, minutes: number) =>
    `${installed} has reported no link quality in the last ${minutes} minutes`,
} as const;

/** The checks the evidence fails, in the order position, link quality; none: it may be approved. */
export function failedApprovalChecks(
  evidence: ApprovalEvidence,
  settings: ApprovalSettings,
): FailedApprovalCheck[] {
  const failed: FailedApprovalCheck[] = [];
  const { installedName, planningName, distanceM, linkQuality } = evidence;
  const tolerance = approvalNumber(settings.tolerance_m);
  if (distanceM === null || !Number.isFinite(distanceM)) {
    failed.push({ check: 'position', message: approvalMessages.noPosition(installedName) });
  } else if (distanceM > settings.tolerance_m) {
    const distance = approvalNumber(distanceM);
    failed.push({
      check: 'position',
      message:
        planningName === null
          ? approvalMessages.tooFarFromPlaced(installedName, distance, tolerance)
          : approvalMessages.tooFar(installedName, distance, planningName, tolerance),
    });
  }
  if (linkQuality === null || !Number.isFinite(linkQuality)) {
    failed.push({
      check: 'link_quality',
      message: approvalMessages.noLinkQuality(installedName, LIVE_LINK_QUALITY_WINDOW_S / 60),
    });
  } else if (linkQuality < settings.min_link_quality) {
    failed.push({
      check: 'link_quality',
      message: approvalMessages.weakLink(
        approvalNumber(linkQuality),
        approvalNumber(settings.min_link_quality),
      ),
    });
  }
  return failed;
}

/** A reason that counts as an override: more than white space. */
export function hasOverrideReason(reason: string | null | undefined): reason is string {
  return typeof reason === 'string' && reason.trim() !== '';
}

/**
 * The 422 field errors of an approval: each failed check by name, and the missing reason, when
 * checks failed and no reason overrides them; {} when it may go ahead.
 */
export function approvalRefusal(
  failed: readonly FailedApprovalCheck[],
  overrideReason: string | null | undefined,
): Record<string, string> {
  if (failed.length === 0 || hasOverrideReason(overrideReason)) return {};
  const errors: Record<string, string> = {};
  for (const { check, message } of failed) errors[check] = message;
  errors.override_reason = approvalMessages.overrideReasonRequired;
  return errors;
}

/** The field errors of a site's approval settings (none: they may be stored). */
export function approvalSettingsProblems(settings: ApprovalSettings): Record<string, string> {
  const problems: Record<string, string> = {};
  const { toleranceM, minLinkQuality } = APPROVAL_SETTING_LIMITS;
  const tolerance = settings.tolerance_m;
  if (!Number.isFinite(tolerance) || tolerance < toleranceM.min || tolerance > toleranceM.max)
    problems.tolerance_m = approvalMessages.toleranceRange;
  const quality = settings.min_link_quality;
  if (!Number.isFinite(quality) || quality < minLinkQuality.min || quality > minLinkQuality.max)
    problems.min_link_quality = approvalMessages.minLinkQualityRange;
  return problems;
}
