import { describe, expect, it } from 'vitest';
import { ANALYTICS_MESSAGES } from '../../src/domain/analytics';
import { EVACUATION_MESSAGES } from '../../src/domain/evacuation';
import { floorMessages } from '../../src/domain/floorValidation';
import { MAINTENANCE_MESSAGES } from '../../src/domain/maintenanceSettings';
import { labelKey, messageCatalogKeys, messageKeyOf } from '../../src/domain/messageCatalog';
import { messages } from '../../src/domain/messages';
import { SAFETY_DEMO_MESSAGES } from '../../src/domain/safetyDemo';
import { authMessages } from '../../src/domain/schemas/auth';
import { zoneMessages } from '../../src/domain/schemas/floors';
import { inventoryMessages } from '../../src/domain/schemas/inventory';
import { nodeMessages } from '../../src/domain/schemas/nodes';
import { controlCharactersMessage } from '../../src/domain/text';
import { workerMessages } from '../../src/domain/workerValidation';
import { BREAK_MESSAGES } from '../../src/domain/workshiftBreaks';
import { TRANSLATIONS } from '../../src/i18n/translations';

type Tree = { [key: string]: string | Tree };

function textAt(tree: unknown, key: string): string | undefined {
  const found = key.split('.').reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], tree);
  return typeof found === 'string' ? found : undefined;
}

const render = (template: string, params: Record<string, string | number> = {}) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name]));

/** Texts the server sends, one of each kind. */
const SENT = [
  messages.required('Name'),
  messages.minChars('Password', 8),
  messages.maxChars('Name', 100),
  messages.minDigits('Contact number', 7),
  messages.maxDigits('Contact number', 15),
  messages.onlyDigits('Contact number'),
  controlCharactersMessage('Name'),
  messages.invalid('Email'),
  messages.notAllowed('Extra'),
  messages.duplicateName('Crew'),
  messages.created('Zone'),
  messages.deleted('Worker'),
  messages.notFound('Site'),
  messages.routeNotFound('GET', '/api/nowhere'),
  messages.malformedRequest,
  messages.unauthenticated,
  messages.notAuthorized,
  messages.invalidInput,
  messages.tooManyAttempts,
  messages.requestTooLarge,
  messages.somethingWentWrongContactSupport,
  messages.badCredentials,
  ...Object.values(authMessages),
  ...Object.values(EVACUATION_MESSAGES),
  ...Object.values(floorMessages),
  ...Object.values(zoneMessages),
  ...Object.values(inventoryMessages),
  ...Object.values(workerMessages).filter((text) => text !== workerMessages.label),
  ...Object.values(BREAK_MESSAGES),
  ...Object.values(SAFETY_DEMO_MESSAGES),
  ...Object.values(ANALYTICS_MESSAGES),
  ...Object.values(nodeMessages),
  ...Object.values(MAINTENANCE_MESSAGES),
  messages.notFound('Node'),
];

describe('the server messages in the i18n files', () => {
  it.each(messageCatalogKeys())('has %s in English and Arabic, the Arabic in Arabic script', (key) => {
    expect(textAt(TRANSLATIONS.en, key), `en ${key}`).toBeDefined();
    expect(textAt(TRANSLATIONS.ar, key), `ar ${key}`).toMatch(/[\u0600-\u06FF]/);
  });

  it.each(SENT)('knows "%s" and its English in en.json is the text the server sends', (text) => {
    const described = messageKeyOf(text);
    expect(described, text).toBeDefined();
    const english = textAt(TRANSLATIONS.en, described?.key ?? '');
    expect(render(english ?? '', described?.params)).toBe(text);
  });

  it('translates the labels the server names in its messages', () => {
    for (const label of ['Name', 'Crew', 'Inventory item', 'Group of sites', 'Worker tag id']) {
      expect(textAt(TRANSLATIONS.en, labelKey(label))).toBe(label);
      expect(textAt(TRANSLATIONS.ar, labelKey(label))).toMatch(/[\u0600-\u06FF]/);
    }
  });

  it('leaves texts outside the catalogue without a key', () => {
    expect(messageKeyOf('Something nobody wrote')).toBeUndefined();
  });
});
