import analytics from './analytics.en.json';
import electricalRm from './electricalRm.en.json';
import evacuation from './evacuation.en.json';
import history from './history.en.json';
import installation from './installation.en.json';
import maintenance from './maintenance.en.json';
import nodes from './nodes.en.json';
import permits from './permits.en.json';
import productivity from './productivity.en.json';
import safety from './safety.en.json';
import users from './users.en.json';
import workers from './workers.en.json';
import workforce from './workforce.en.json';

/**
 * The English texts of the signed-in screens, under the keys `analytics`, `evacuation`, `safety`, `workers`
 * and `workforce`: downloaded with the signed-in routes, not with the login page
 * (`addScreenTexts` of src/i18n/index.ts).
 */
export const ENGLISH_SCREENS = {
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
  users,
  workers,
  workforce,
};
