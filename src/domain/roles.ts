export const ROLES = [
  'super-admin',
  'client-admin',
  'group-of-sites-admin',
  'group-of-sites-viewer',
  'crew-manager',
  'site-engineer',
  'safety-demo',
] as const;

export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  'super-admin': 'Super Admin',
  'client-admin': 'Client Admin',
  'group-of-sites-admin': 'Site Admin',
  'group-of-sites-viewer': 'Site Viewer',
  'crew-manager': 'Crew Manager',
  'site-engineer': 'Site Engineer',
  'safety-demo': 'Safety Demo',
};

/** The short slug used in demo logins: `<slug>@demo.sitewatch.dev`. */
export const ROLE_SLUGS: Record<Role, string> = {
  'super-admin': 'super-admin',
  'client-admin': 'client-admin',
  'group-of-sites-admin': 'site-admin',
  'group-of-sites-viewer': 'site-viewer',
  'crew-manager': 'crew-manager',
  'site-engineer': 'site-engineer',
  'safety-demo': 'safety-demo',
};

export const PERMISSIONS = ['clients:create'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const DEFAULT_ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  'super-admin': ['clients:create'],
  'client-admin': [],
  'group-of-sites-admin': [],
  'group-of-sites-viewer': [],
  'crew-manager': [],
  'site-engineer': [],
  'safety-demo': [],
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Roles that see sites through their client rather than through site membership. */
export function seesWholeClient(role: Role): boolean {
  return role === 'client-admin';
}
