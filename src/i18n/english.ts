import en from './en.json';
import evacuation from './evacuation.en.json';
import safety from './safety.en.json';
import server from './server.en.json';
import workers from './workers.en.json';
import workforce from './workforce.en.json';

/**
 * Every English text. The safety and workforce screens keep theirs in files of their own, merged
 * here under the keys `evacuation`, `safety`, `workers` and `workforce`; the server's replies
 * (src/domain/messageCatalog.ts) under `server`. English is bundled with
 * the console: it is the default language and the fallback of every other.
 */
export const ENGLISH = { ...en, evacuation, safety, server, workers, workforce };
