import analytics from './analytics.ar.json';
import ar from './ar.json';
import electricalRm from './electricalRm.ar.json';
import evacuation from './evacuation.ar.json';
import history from './history.ar.json';
import installation from './installation.ar.json';
import maintenance from './maintenance.ar.json';
import nodes from './nodes.ar.json';
import permits from './permits.ar.json';
import productivity from './productivity.ar.json';
import safety from './safety.ar.json';
import server from './server.ar.json';
import users from './users.ar.json';
import workers from './workers.ar.json';
import workforce from './workforce.ar.json';

/**
 * Every Arabic text, merged as english.ts merges the English ones. A chunk of its own, loaded only
 * when Arabic is the language shown (src/i18n/index.ts).
 */
export const ARABIC = {
  ...ar,
  analytics,
  electricalRm,
  evacuation,
  history,
  installation,
  maintenance,
  nodes,
  permits,
  productivity,
  safety,
  server,
  users,
  workers,
  workforce,
};
