import type { Role } from './roles';

/**
 * The one table of who may open and change what (DESIGN.md §4). The console's guards and
 * menu and the server's route authorization all ask it through `can`.
 */
export type Area =
  | 'home'
  | 'analytics'
  | 'maps'
  | 'workers'
  | 'workerCreation'
  | 'attendance'
  | 'crews'
  | 'workshifts'
  | 'workerRoles'
  | 'subcontractors'
  | 'configuration'
  | 'bulkUploads'
  | 'nodes'
  | 'installation'
  | 'maintenance'
  | 'electricalRm'
  | 'productivity'
  | 'safety'
  | 'evacuation'
  | 'safetyDemo'
  | 'users'
  | 'sites'
  | 'buildings'
  | 'networks';

export type AccessLevel = 'write' | 'read' | 'none';

type Row = Record<Role, AccessLevel>;

const W: AccessLevel = 'write';
const R: AccessLevel = 'read';
const N: AccessLevel = 'none';

function row(
  superAdmin: AccessLevel,
  clientAdmin: AccessLevel,
  siteAdmin: AccessLevel,
  siteViewer: AccessLevel,
  crewManager: AccessLevel,
  siteEngineer: AccessLevel,
  safetyDemo: AccessLevel,
): Row {
  return {
    'super-admin': superAdmin,
    'client-admin': clientAdmin,
    'group-of-sites-admin': siteAdmin,
    'group-of-sites-viewer': siteViewer,
    'crew-manager': crewManager,
    'site-engineer': siteEngineer,
    'safety-demo': safetyDemo,
  };
}

const ACCESS: Record<Area, Row> = {
  home: row(W, W, W, R, W, W, W),
  analytics: row(W, W, W, R, N, N, N),
  maps: row(W, W, W, R, N, N, N),
  workers: row(W, W, W, R, W, N, N),
  // Adding workers: a crew manager changes only the workers of its crews and adds none.
  workerCreation: row(W, W, W, N, N, N, N),
  attendance: row(W, W, W, R, W, N, N),
  crews: row(W, W, W, R, W, N, N),
  workshifts: row(W, W, W, R, W, N, N),
  workerRoles: row(W, W, W, N, N, N, N),
  subcontractors: row(W, W, W, N, N, N, N),
  configuration: row(W, W, W, N, N, N, N),
  bulkUploads: row(W, W, W, N, N, N, N),
  nodes: row(W, W, W, N, N, W, N),
  installation: row(W, W, W, N, N, W, N),
  maintenance: row(W, W, W, N, N, W, N),
  electricalRm: row(W, W, W, N, N, W, N),
  productivity: row(W, W, W, R, W, W, N),
  safety: row(W, W, W, R, N, N, W),
  evacuation: row(W, W, W, R, N, N, W),
  safetyDemo: row(W, N, N, N, N, N, W),
  users: row(W, W, W, N, N, N, N),
  // Site structure: everyone reads the sites they are a member of; admins change them.
  sites: row(W, W, R, R, R, R, R),
  buildings: row(W, W, W, R, R, R, R),
  networks: row(W, W, W, N, N, R, N),
};

export type Capability = 'open' | 'write';

export function accessLevel(role: Role, area: Area): AccessLevel {
  return ACCESS[area][role];
}

export function can(role: Role, capability: Capability, area: Area): boolean {
  const level = accessLevel(role, area);
  return capability === 'open' ? level !== 'none' : level === 'write';
}

/** Where a site-engineer lands instead of the dashboard (the spec leaves the path open). */
export const SITE_ENGINEER_LANDING = '/installation';

export function landingPath(role: Role): string {
  return role === 'site-engineer' ? SITE_ENGINEER_LANDING : '/';
}
