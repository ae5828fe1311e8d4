import { describe, expect, it } from 'vitest';
import {
  approvalMessages,
  approvalRefusal,
  approvalSettingsProblems,
  DEFAULT_APPROVAL_SETTINGS,
  failedApprovalChecks,
  liveLinkQuality,
} from '../../src/domain/anchorApproval';
import { messageKeyOf } from '../../src/domain/messageCatalog';
import { DEFAULT_RADIO_MODEL } from '../../src/domain/radio/radioModel';
import { radioSettingsOf, radioSettingsProblems } from '../../src/domain/radioSettings';
import { TRANSLATIONS } from '../../src/i18n/translations';

const settings = DEFAULT_APPROVAL_SETTINGS;
const evidence = { installedName: 'ANC-0101', planningName: 'P-03', distanceM: 0.3, linkQuality: 70 };

describe('the anchor approval evidence rule', () => {
  it('passes an anchor within the tolerance on a live link of the site minimum or more', () => {
    expect(settings).toEqual({ tolerance_m: 0.5, min_link_quality: 50 });
    expect(failedApprovalChecks(evidence, settings)).toEqual([]);
    expect(failedApprovalChecks({ ...evidence, distanceM: 0.5, linkQuality: 50 }, settings)).toEqual([]);
    expect(approvalRefusal([], undefined)).toEqual({});
  });

  it('names each failed check in words, and asks for a reason unless one is given', () => {
    const failed = failedApprovalChecks({ ...evidence, distanceM: 1.234, linkQuality: 22 }, settings);
    expect(failed).toEqual([
      { check: 'position', message: 'ANC-0101 is 1.23 m from P-03; the tolerance is 0.5 m' },
      { check: 'link_quality', message: "Link quality 22 is below the site's 50" },
    ]);
    expect(approvalRefusal(failed, '  ')).toEqual({
      position: 'ANC-0101 is 1.23 m from P-03; the tolerance is 0.5 m',
      link_quality: "Link quality 22 is below the site's 50",
      override_reason: 'An override reason is required when a check fails',
    });
    expect(approvalRefusal(failed, 'Surveyed by hand')).toEqual({});
    expect(
      failedApprovalChecks({ ...evidence, planningName: null, distanceM: 0.7 }, settings)[0].message,
    ).toBe('ANC-0101 is 0.7 m from where it is placed; the tolerance is 0.5 m');
  });

  it('fails an anchor that reported no position or no live link quality', () => {
    expect(failedApprovalChecks({ ...evidence, distanceM: null, linkQuality: null }, settings)).toEqual([
      { check: 'position', message: 'ANC-0101 has reported no position' },
      { check: 'link_quality', message: 'ANC-0101 has reported no link quality in the last 15 minutes' },
    ]);
    const now = Date.UTC(2026, 10, 27, 8);
    expect(liveLinkQuality(70, now - 14 * 60_000, now)).toBe(70);
    expect(liveLinkQuality(70, now - 16 * 60_000, now)).toBeNull();
    expect(liveLinkQuality(null, now, now)).toBeNull();
  });

  it('keys every text with values for the console, in English and Arabic', () => {
    const texts = [
      approvalMessages.tooFar('ANC-0101', '1.2', 'P-03', '0.5'),
      approvalMessages.tooFarFromPlaced('ANC-0101', '0.7', '0.5'),
      approvalMessages.noPosition('ANC-0101'),
      approvalMessages.weakLink('22', '50'),
      approvalMessages.noLinkQuality('ANC-0101', 15),
    ];
    const keys = texts.map((text) => messageKeyOf(text));
    expect(keys.map((k) => k?.key)).toEqual([
      'server.approval.tooFar',
      'server.approval.tooFarFromPlaced',
      'server.approval.noPosition',
      'server.approval.weakLink',
      'server.approval.noLinkQuality',
    ]);
    expect(keys[0]?.params).toEqual({
      installed: 'ANC-0101',
      distance: '1.2',
      planned: 'P-03',
      tolerance: '0.5',
    });
    const approval = (TRANSLATIONS.ar as { server: { approval: Record<string, string> } }).server.approval;
    for (const key of keys) expect(approval[key?.key.split('.').at(-1) ?? '']).toMatch(/[\u0600-\u06FF]/);
  });
});

describe("a site's radio settings", () => {
  it('reads the defaults for nothing stored, and for a stored part that no longer passes', () => {
    expect(radioSettingsOf(undefined)).toEqual({ model: DEFAULT_RADIO_MODEL, approval: settings });
    const stored = radioSettingsOf({
      model: { ...DEFAULT_RADIO_MODEL, frequencyMHz: 1 },
      approval: { tolerance_m: 1, min_link_quality: 40 },
    });
    expect(stored).toEqual({
      model: DEFAULT_RADIO_MODEL,
      approval: { tolerance_m: 1, min_link_quality: 40 },
    });
  });

  it('refuses values out of range by field', () => {
    expect(approvalSettingsProblems({ tolerance_m: 0.01, min_link_quality: 50 })).toEqual({
      tolerance_m: 'The tolerance must be from 0.05 to 10 metres',
    });
    expect(
      radioSettingsProblems({
        model: { ...DEFAULT_RADIO_MODEL, maxDop: 0 },
        approval: { tolerance_m: 1, min_link_quality: 101 },
      }),
    ).toEqual({
      'model.maxDop': 'Maximum DOP must be a number from 1 to 50',
      'approval.min_link_quality': 'The minimum link quality must be from 0 to 100',
    });
  });
});
