import { describe, expect, it } from 'vitest';
import { ACTIVITY_STATUS_MESSAGES, refusalOf } from '../../src/domain/activityStatus';
import { messageKeyOf } from '../../src/domain/messageCatalog';
import { approvedMessage, PRODUCTIVITY_MESSAGES } from '../../src/domain/schemas/productivity';
import { TRANSLATIONS } from '../../src/i18n/translations';

type Tree = { [key: string]: string | Tree };
const textAt = (tree: unknown, key: string) => {
  const found = key.split('.').reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], tree);
  return typeof found === 'string' ? found : undefined;
};
const render = (template: string, params: Record<string, string | number> = {}) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name]));

/** Every text the productivity routes send, one of each kind. */
const SENT = [
  ...Object.values(PRODUCTIVITY_MESSAGES),
  ACTIVITY_STATUS_MESSAGES.stale,
  ACTIVITY_STATUS_MESSAGES.reasonRequired,
  ACTIVITY_STATUS_MESSAGES.notBookable.replace('{from}', 'in_review'),
  refusalOf('group-of-sites-admin', 'approved', 'approve') as string,
  refusalOf('crew-manager', 'approved_by_cm', 'approve') as string,
  approvedMessage(2, 5),
];

describe('the productivity messages in the i18n files', () => {
  it.each(SENT)('knows "%s" and sends the English of en.json, with an Arabic text', (text) => {
    const described = messageKeyOf(text);
    expect(described, text).toBeDefined();
    expect(render(textAt(TRANSLATIONS.en, described?.key ?? '') ?? '', described?.params)).toBe(text);
    expect(textAt(TRANSLATIONS.ar, described?.key ?? '')).toMatch(/[\u0600-\u06FF]/);
  });
});
