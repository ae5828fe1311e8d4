import { ARABIC } from './arabic';
import { ENGLISH_PUBLIC } from './english';
import { ENGLISH_SCREENS } from './englishScreens';

/**
 * Every text by language, both bundled: for the checks that compare the languages. The console
 * itself loads Arabic on demand through src/i18n/index.ts.
 */
export const TRANSLATIONS = { en: { ...ENGLISH_PUBLIC, ...ENGLISH_SCREENS }, ar: ARABIC } as const;
