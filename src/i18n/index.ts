import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../domain/limits';
import { ENGLISH_PUBLIC } from './english';

/** A language's texts; tests/unit/i18n.test.ts checks that every language has the same keys. */
type Texts = Record<string, unknown>;

/**
 * Each language's texts. English is bundled (the default and every language's fallback) without
 * the signed-in screens' texts, which arrive with those screens (`addScreenTexts`); Arabic is a
 * chunk of its own, downloaded only when it is the language shown.
 */
const TEXTS_OF: Record<Locale, () => Promise<Texts>> = {
  en: async () => ENGLISH_PUBLIC,
  ar: async () => (await import('./arabic')).ARABIC,
};

/**
 * The language a signed-out visitor last chose, so the login and password pages follow it after
 * a reload. The signed-in user's own locale lives on the stored user; this only remembers the
 * last one applied.
 */
const LAST_LOCALE_KEY = 'locale';

export const i18n = i18next;

export function storedLocale(): Locale {
  try {
    const value = globalThis.localStorage?.getItem(LAST_LOCALE_KEY);
    return isLocale(value) ? value : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

function rememberLocale(locale: Locale): void {
  try {
    globalThis.localStorage?.setItem(LAST_LOCALE_KEY, locale);
  } catch {
    // Storage may be unavailable (private mode, quota); the language still applies for this page.
  }
}

/** Arabic reads right-to-left: the whole document flips, and CSS logical properties follow. */
export function directionOf(locale: Locale): 'rtl' | 'ltr' {
  return locale === 'ar' ? 'rtl' : 'ltr';
}

export function applyDirection(locale: Locale): void {
  if (typeof document === 'undefined') return;
  document.documentElement.dir = directionOf(locale);
  document.documentElement.lang = locale;
}

/** Adds the English texts of the signed-in screens (englishScreens.ts), which came with their chunk. */
export function addScreenTexts(texts: Texts): void {
  i18n.addResourceBundle('en', 'translation', texts, true, false);
}

/** Adds a language's texts to i18next, downloading them the first time. */
export async function loadTranslations(locale: Locale): Promise<void> {
  if (i18n.hasResourceBundle(locale, 'translation')) return;
  i18n.addResourceBundle(locale, 'translation', await TEXTS_OF[locale]());
}

/** The last language asked for: a slower download of an earlier choice must not win over it. */
let latestRequest: Locale | null = null;

/**
 * Switches texts and direction together once the language's texts are there (so no key or other
 * language shows in between), and remembers the choice for signed-out pages. When the texts cannot
 * be downloaded (offline), the page stays in the language it shows and the error is passed on.
 */
export async function applyLocale(locale: Locale): Promise<void> {
  latestRequest = locale;
  await loadTranslations(locale);
  if (latestRequest !== locale) return;
  applyDirection(locale);
  rememberLocale(locale);
  await settleLanguage(locale);
}

/**
 * Makes `locale` i18next's language once its texts are in. i18next started in a language whose
 * texts came later keeps resolving to the fallback (`i18n.dir()` answered 'ltr' in Arabic) until
 * the language is changed again, even to the same one.
 */
async function settleLanguage(locale: Locale): Promise<void> {
  if (i18n.language !== locale || i18n.resolvedLanguage !== locale) await i18n.changeLanguage(locale);
}

export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/**
 * Initialises i18next once, synchronously, in the given language with the English texts; another
 * language's texts follow with `loadTranslations` (until then English shows, its fallback).
 */
export function initI18n(locale: Locale = storedLocale()): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources: { en: { translation: ENGLISH_PUBLIC } },
      partialBundledLanguages: true,
      lng: locale,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: ['en', 'ar'],
      interpolation: { escapeValue: false },
      initAsync: false,
      react: { useSuspense: false },
    });
  }
  applyDirection(locale);
  return i18n;
}

/**
 * The console's start: i18next in the stored language with that language's texts loaded, so the
 * first render already shows them. If they cannot be downloaded, the page starts in English.
 */
export async function startI18n(locale: Locale = storedLocale()): Promise<typeof i18n> {
  initI18n(locale);
  try {
    await loadTranslations(locale);
    await settleLanguage(locale);
  } catch {
    applyDirection(DEFAULT_LOCALE);
    await i18n.changeLanguage(DEFAULT_LOCALE);
  }
  return i18n;
}
