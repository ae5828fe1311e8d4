import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../domain/limits';
import ar from './ar.json';
import en from './en.json';
import evacuationAr from './evacuation.ar.json';
import evacuationEn from './evacuation.en.json';
import safetyAr from './safety.ar.json';
import safetyEn from './safety.en.json';
import workersAr from './workers.ar.json';
import workersEn from './workers.en.json';
import workforceAr from './workforce.ar.json';
import workforceEn from './workforce.en.json';

/**
 * Every text by language. The safety and workforce screens keep theirs in files of their own
 * (under the keys `evacuation`, `safety`, `workers` and `workforce`), merged here.
 */
export const TRANSLATIONS = {
  en: { ...en, evacuation: evacuationEn, safety: safetyEn, workers: workersEn, workforce: workforceEn },
  ar: { ...ar, evacuation: evacuationAr, safety: safetyAr, workers: workersAr, workforce: workforceAr },
} as const;

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

/** Switches texts and direction together, and remembers the choice for signed-out pages. */
export async function applyLocale(locale: Locale): Promise<void> {
  applyDirection(locale);
  rememberLocale(locale);
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
}

export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/** Initialises i18next once, synchronously (the resources are bundled), in the stored language. */
export function initI18n(locale: Locale = storedLocale()): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources: { en: { translation: TRANSLATIONS.en }, ar: { translation: TRANSLATIONS.ar } },
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
