import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIVITY_ACTIONS,
  ACTIVITY_STATUS_MESSAGES,
  ACTIVITY_STATUSES,
  notBookableMessage,
  refusalOf,
} from '../../src/domain/activityStatus';
import { messageKeyOf } from '../../src/domain/messageCatalog';
import { ROLES } from '../../src/domain/roles';
import { approvedMessage, PRODUCTIVITY_MESSAGES } from '../../src/domain/schemas/productivity';
import { TRANSLATIONS } from '../../src/i18n/translations';
import { serverText } from '../../src/views/shared/serverMessage';
import { consoleTranslators } from './helpers/translators';

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
  notBookableMessage('in_review'),
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

describe('the refusals in Arabic', () => {
  let ar: TFunction;
  beforeAll(async () => {
    ({ ar } = await consoleTranslators());
  });

  const refusals = ROLES.flatMap((role) =>
    ACTIVITY_STATUSES.flatMap((from) =>
      ACTIVITY_ACTIONS.map((action) => refusalOf(role, from, action)).filter((text) => text !== null),
    ),
  );
  const unbookable = ACTIVITY_STATUSES.map((from) => notBookableMessage(from));

  it.each([...new Set([...refusals, ...unbookable])])(
    'names the status and action of "%s" in Arabic words',
    (text) => {
      const arabic = serverText(text, ar);
      expect(arabic).toMatch(/[\u0600-\u06FF]/);
      // Neither the API's status spelling (in_review) nor an English verb or an unresolved key.
      expect(arabic).not.toMatch(/[A-Za-z_]/);
    },
  );

  it('shows the translated status of the one the server named', () => {
    const text = refusalOf('crew-manager', 'approved_by_cm', 'approve') as string;
    expect(serverText(text, ar)).toContain(TRANSLATIONS.ar.productivity.status.approved_by_cm);
    expect(serverText(text, ar)).toContain(TRANSLATIONS.ar.productivity.action.approve);
  });
});
