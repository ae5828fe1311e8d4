import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages';
import { ROLE_LABELS, ROLES } from '../../src/domain/roles';
import { isMenuGroup, MENU, SCREEN_ROUTES } from '../../src/domain/routes';
import { directionOf } from '../../src/i18n/index';
import { TRANSLATIONS } from '../../src/i18n/translations';

type Tree = { [key: string]: string | Tree };

/** Every leaf key as a dotted path, with its text. */
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') found.set(path, value);
    else for (const [leaf, text] of leaves(value, path)) found.set(leaf, text);
  }
  return found;
}

const { en, ar } = TRANSLATIONS;
const EN = leaves(en as unknown as Tree);
const AR = leaves(ar as unknown as Tree);

const ARABIC = /[\u0600-\u06FF]/;
/** Texts that stay the same in Arabic: names and the language names themselves. */
const SAME_IN_BOTH = new Set(['menu.etqr', 'screen.productivity', 'shell.appName', 'common.languages.en']);

const menuKeys = MENU.flatMap((entry) =>
  isMenuGroup(entry) ? [entry.labelKey, ...entry.children.map((child) => child.labelKey)] : [entry.labelKey],
);

describe('translations', () => {
  it('en.json and ar.json have identical key sets', () => {
    expect([...AR.keys()].sort()).toEqual([...EN.keys()].sort());
  });

  it('has the five top-level areas', () => {
    for (const area of ['common', 'auth', 'menu', 'screen', 'shell']) {
      expect(en).toHaveProperty(area);
      expect(ar).toHaveProperty(area);
    }
  });

  it('has no empty texts', () => {
    for (const [key, text] of [...EN, ...AR]) expect(text.trim(), key).not.toBe('');
  });

  it.each(menuKeys)('has the menu label %s in both languages', (key) => {
    expect(EN.has(key), `en ${key}`).toBe(true);
    expect(AR.has(key), `ar ${key}`).toBe(true);
  });

  it.each(SCREEN_ROUTES.map((route) => route.titleKey))(
    'has the screen title %s in both languages',
    (key) => {
      expect(EN.has(key), `en ${key}`).toBe(true);
      expect(AR.has(key), `ar ${key}`).toBe(true);
    },
  );

  it('writes the menu, screens and shell in Arabic script in ar.json', () => {
    for (const [key, text] of AR) {
      if (!/^(menu|screen|shell)\./.test(key) || SAME_IN_BOTH.has(key)) continue;
      expect(text, key).toMatch(ARABIC);
    }
  });

  it('uses the spec texts for the menu and the offline notices in English', () => {
    expect(EN.get('menu.maps')).toBe('Maps & Zones');
    expect(EN.get('menu.electricalRm')).toBe('Electrical RM Installation');
    expect(EN.get('common.offline')).toBe(messages.offline);
    expect(EN.get('common.backOnline')).toBe(messages.backOnline);
    expect(EN.get('common.somethingWentWrong')).toBe(messages.somethingWentWrong);
    expect(EN.get('screen.forbidden.title')).toBe(messages.notAuthorized);
  });

  it('labels every role, in English as ROLE_LABELS does', () => {
    for (const role of ROLES) {
      expect(EN.get(`shell.role.${role}`)).toBe(ROLE_LABELS[role]);
      expect(AR.get(`shell.role.${role}`)).toMatch(ARABIC);
    }
  });

  it('keeps interpolation placeholders in both languages', () => {
    for (const [key, text] of EN) {
      const placeholders = (value: string) => [...value.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(placeholders(AR.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });

  it('reads Arabic right-to-left and English left-to-right', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('en')).toBe('ltr');
  });
});
