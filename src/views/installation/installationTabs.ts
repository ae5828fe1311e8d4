/** The installation screen's tabs, as the address names them (`?tab=`); the plan when none. */
export const INSTALLATION_TABS = ['plan', 'approval', 'permits'] as const;
export type InstallationTab = (typeof INSTALLATION_TABS)[number];
