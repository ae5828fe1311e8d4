import en from './en.json';
import server from './server.en.json';

/**
 * The English texts every page needs, bundled with the console: the default language and the
 * fallback of every other. The server's replies (src/domain/messageCatalog.ts) are under `server`.
 * The signed-in screens' own texts come with them (englishScreens.ts).
 */
export const ENGLISH_PUBLIC = { ...en, server };
