import { ARABIC } from './arabic';
import { ENGLISH } from './english';

/**
 * Every text by language, both bundled: for the checks that compare the languages. The console
 * itself loads Arabic on demand through src/i18n/index.ts.
 */
export const TRANSLATIONS = { en: ENGLISH, ar: ARABIC } as const;
