import {
  ESCALATION_LIMITS,
  type EscalationContacts,
  parseRecipients,
  type SafetySettings,
} from '../../../domain/escalation';

/** One level as the dialog edits it: the numbers as typed, the recipients as one text. */
export interface LevelDraft {
  /** Keeps React's rows apart when a level in the middle is removed. */
  key: number;
  afterMinutes: string;
  contacts: EscalationContacts;
  recipients: string;
}

export interface SettingsDraft {
  /** Blank: since the start of the shift. */
  possiblyInsideHours: string;
  levels: LevelDraft[];
}

let nextKey = 0;

export function draftOf(settings: SafetySettings): SettingsDraft {
  return {
    possiblyInsideHours: settings.possiblyInsideHours === null ? '' : String(settings.possiblyInsideHours),
    levels: settings.escalationLevels.map((level) => ({
      key: nextKey++,
      afterMinutes: String(level.afterMinutes),
      contacts: level.contacts,
      recipients: level.recipients.join(', '),
    })),
  };
}

/** A new last level: ten minutes after the one before, to the client's admins. */
export function newLevel(): LevelDraft {
  return { key: nextKey++, afterMinutes: '10', contacts: 'client', recipients: '' };
}

export function canAddLevel(draft: SettingsDraft): boolean {
  return draft.levels.length < ESCALATION_LIMITS.maxLevels;
}

// A decimal comma is as good as a point (Arabic keyboards and much of Europe type one).
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim().replace(',', '.')));

/** What the dialog sends: numbered levels, numbers parsed (NaN when not a number, which the rule refuses). */
export function settingsOf(draft: SettingsDraft): SafetySettings {
  return {
    possiblyInsideHours: draft.possiblyInsideHours.trim() === '' ? null : numberOf(draft.possiblyInsideHours),
    escalationLevels: draft.levels.map((level, index) => ({
      level: index + 1,
      afterMinutes: numberOf(level.afterMinutes),
      contacts: level.contacts,
      recipients: parseRecipients(level.recipients),
    })),
  };
}
