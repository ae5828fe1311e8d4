import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ESCALATION_LEVELS,
  ESCALATION_MESSAGES,
  type EscalationLevel,
  effectiveEscalationLevels,
  incidentTransition,
  nextEscalationDue,
  parseRecipients,
  validateSafetySettings,
} from '../../src/domain/escalation';
import { INCIDENT_STATUSES } from '../../src/domain/incidents';
import { draftOf, settingsOf } from '../../src/views/safety/settings/settingsDraft';

const levels: EscalationLevel[] = [
  { level: 1, afterMinutes: 5, contacts: 'site', recipients: [] },
  { level: 2, afterMinutes: 0.5, contacts: 'none', recipients: ['ops@example.com'] },
];
const raised = new Date('2025-06-01T10:00:00Z');

describe('staged escalation rules', () => {
  it('times each step from the one before, and stops after the last level', () => {
    expect(nextEscalationDue(levels, 0, raised)?.toISOString()).toBe('2025-06-01T10:05:00.000Z');
    expect(nextEscalationDue(levels, 1, raised)?.toISOString()).toBe('2025-06-01T10:00:30.000Z');
    expect(nextEscalationDue(levels, 2, raised)).toBeNull();
  });

  it('escalates open and escalated incidents up to the last level, never acknowledged or resolved ones', () => {
    expect(incidentTransition({ status: 'open', level: 0 }, 'escalate', 2)).toEqual({
      allowed: true,
      status: 'escalated',
    });
    expect(incidentTransition({ status: 'escalated', level: 1 }, 'escalate', 2).allowed).toBe(true);
    expect(incidentTransition({ status: 'escalated', level: 2 }, 'escalate', 2)).toEqual({
      allowed: false,
      message: ESCALATION_MESSAGES.lastLevel,
    });
    expect(incidentTransition({ status: 'acknowledged', level: 1 }, 'escalate', 2)).toEqual({
      allowed: false,
      message: ESCALATION_MESSAGES.alreadyAcknowledged,
    });
  });

  it('acknowledges before resolving, resolves from any open state, and refuses every step after resolving', () => {
    const table = Object.fromEntries(
      INCIDENT_STATUSES.map((status) => [
        status,
        (['escalate', 'acknowledge', 'resolve'] as const).map((action) => {
          const result = incidentTransition({ status, level: 0 }, action, 2);
          return result.allowed ? result.status : result.message;
        }),
      ]),
    );
    expect(table).toEqual({
      open: ['escalated', 'acknowledged', 'resolved'],
      escalated: ['escalated', 'acknowledged', 'resolved'],
      acknowledged: [
        ESCALATION_MESSAGES.alreadyAcknowledged,
        ESCALATION_MESSAGES.alreadyAcknowledged,
        'resolved',
      ],
      resolved: [
        ESCALATION_MESSAGES.alreadyResolved,
        ESCALATION_MESSAGES.alreadyResolved,
        ESCALATION_MESSAGES.alreadyResolved,
      ],
    });
  });

  it('uses the default levels while a site stored none or something unusable', () => {
    expect(effectiveEscalationLevels([])).toEqual(DEFAULT_ESCALATION_LEVELS);
    expect(effectiveEscalationLevels([{ level: 2 }])).toEqual(DEFAULT_ESCALATION_LEVELS);
    expect(effectiveEscalationLevels(levels)).toEqual(levels);
    expect(DEFAULT_ESCALATION_LEVELS.map((l) => [l.afterMinutes, l.contacts])).toEqual([
      [5, 'site'],
      [10, 'client'],
    ]);
  });

  it('names the field of every bad value', () => {
    expect(validateSafetySettings({ possiblyInsideHours: 12, escalationLevels: levels })).toEqual({});
    expect(
      validateSafetySettings({
        possiblyInsideHours: 0,
        escalationLevels: [
          ...levels,
          { level: 3, afterMinutes: 1441, contacts: 'site', recipients: Array(21).fill('a@b.co') },
        ],
      }),
    ).toEqual({
      possiblyInsideHours: ESCALATION_MESSAGES.possiblyInsideHours,
      'escalationLevels.2.afterMinutes': ESCALATION_MESSAGES.afterMinutes,
      'escalationLevels.2.recipients': ESCALATION_MESSAGES.tooManyRecipients,
    });
    const six = Array.from({ length: 6 }, (_, i) => ({ ...levels[0], level: i + 1 }));
    expect(validateSafetySettings({ possiblyInsideHours: null, escalationLevels: six })).toEqual({
      escalationLevels: ESCALATION_MESSAGES.tooManyLevels,
    });
  });

  it('reads recipients typed with commas, semicolons or new lines, and numbers with a decimal comma', () => {
    expect(parseRecipients(' a@x.io, b@y.io;\nc@z.io  ')).toEqual(['a@x.io', 'b@y.io', 'c@z.io']);
    const draft = draftOf({ possiblyInsideHours: null, escalationLevels: levels });
    draft.possiblyInsideHours = '1,5';
    draft.levels[1].afterMinutes = 'soon';
    const settings = settingsOf(draft);
    expect(settings.possiblyInsideHours).toBe(1.5);
    expect(settings.escalationLevels[1].recipients).toEqual(['ops@example.com']);
    expect(validateSafetySettings(settings)).toEqual({
      'escalationLevels.1.afterMinutes': ESCALATION_MESSAGES.afterMinutes,
    });
  });
});
