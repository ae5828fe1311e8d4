import i18next, { type TFunction } from 'i18next';
import { TRANSLATIONS } from '../../../src/i18n/translations';

/** The console's English and Arabic texts in an i18next instance of their own, as the screens use them. */
export async function consoleTranslators(): Promise<{ en: TFunction; ar: TFunction }> {
  const instance = i18next.createInstance();
  await instance.init({
    resources: { en: { translation: TRANSLATIONS.en }, ar: { translation: TRANSLATIONS.ar } },
    lng: 'en',
    interpolation: { escapeValue: false },
  });
  return { en: instance.getFixedT('en'), ar: instance.getFixedT('ar') };
}
