import { type Area, can } from './access';
import type { Role } from './roles';

/** Routes of spec §2. Public routes send a signed-in user home. */
export const PUBLIC_PATHS = [
  '/login',
  '/forgot-password',
  '/reset-password/:token',
  '/register/:signature',
] as const;

export interface ScreenRoute {
  path: string;
  area: Area;
  /** i18n key of the screen title. */
  titleKey: string;
}

export const SCREEN_ROUTES: readonly ScreenRoute[] = [
  { path: '/', area: 'home', titleKey: 'screen.home' },
  { path: '/analytics', area: 'analytics', titleKey: 'screen.analytics' },
  { path: '/analytics/heatmap', area: 'analytics', titleKey: 'screen.analyticsHeatmap' },
  { path: '/analytics/spaghetti', area: 'analytics', titleKey: 'screen.analyticsSpaghetti' },
  { path: '/analytics/playback', area: 'analytics', titleKey: 'screen.analyticsPlayback' },
  { path: '/workers', area: 'workers', titleKey: 'screen.workers' },
  { path: '/nodes', area: 'nodes', titleKey: 'screen.nodes' },
  { path: '/crews', area: 'crews', titleKey: 'screen.crews' },
  { path: '/workshifts', area: 'workshifts', titleKey: 'screen.workshifts' },
  { path: '/installation', area: 'installation', titleKey: 'screen.installation' },
  { path: '/users', area: 'users', titleKey: 'screen.users' },
  { path: '/maintenance', area: 'maintenance', titleKey: 'screen.maintenance' },
  { path: '/maintenance/map', area: 'maintenance', titleKey: 'screen.maintenanceMap' },
  { path: '/configuration', area: 'configuration', titleKey: 'screen.configuration' },
  { path: '/configuration/workerRoles', area: 'workerRoles', titleKey: 'screen.workerRoles' },
  { path: '/configuration/subContractors', area: 'subcontractors', titleKey: 'screen.subcontractors' },
  { path: '/configuration/bulkUploads', area: 'bulkUploads', titleKey: 'screen.bulkUploads' },
  { path: '/productivity', area: 'productivity', titleKey: 'screen.productivity' },
  { path: '/safteyDemo', area: 'safetyDemo', titleKey: 'screen.safetyDemo' },
  { path: '/safety', area: 'safety', titleKey: 'screen.safety' },
  { path: '/safetyevacuation', area: 'evacuation', titleKey: 'screen.evacuation' },
  { path: '/maps', area: 'maps', titleKey: 'screen.maps' },
  { path: '/dailyAttendanceReport', area: 'attendance', titleKey: 'screen.attendance' },
  // Not in the spec's route table but in its side menu; the path is ours.
  { path: '/electricalRmInstallation', area: 'electricalRm', titleKey: 'screen.electricalRm' },
];

export interface MenuLink {
  labelKey: string;
  path: string;
  area: Area;
}

export interface MenuGroup {
  labelKey: string;
  children: readonly MenuLink[];
}

export type MenuEntry = MenuLink | MenuGroup;

/** Side menu of spec §2, in its order. */
export const MENU: readonly MenuEntry[] = [
  { labelKey: 'menu.analytics', path: '/analytics', area: 'analytics' },
  { labelKey: 'menu.workers', path: '/workers', area: 'workers' },
  { labelKey: 'menu.workerRoles', path: '/configuration/workerRoles', area: 'workerRoles' },
  { labelKey: 'menu.subcontractors', path: '/configuration/subContractors', area: 'subcontractors' },
  { labelKey: 'menu.maps', path: '/maps', area: 'maps' },
  { labelKey: 'menu.etqr', path: '/productivity', area: 'productivity' },
  {
    labelKey: 'menu.crewsAndWorkshifts',
    children: [
      { labelKey: 'menu.crews', path: '/crews', area: 'crews' },
      { labelKey: 'menu.workshifts', path: '/workshifts', area: 'workshifts' },
    ],
  },
  { labelKey: 'menu.nodes', path: '/nodes', area: 'nodes' },
  { labelKey: 'menu.installation', path: '/installation', area: 'installation' },
  {
    labelKey: 'menu.maintenanceKit',
    children: [
      { labelKey: 'menu.mapView', path: '/maintenance/map', area: 'maintenance' },
      { labelKey: 'menu.maintenanceToolkit', path: '/maintenance', area: 'maintenance' },
    ],
  },
  { labelKey: 'menu.users', path: '/users', area: 'users' },
  {
    labelKey: 'menu.configurations',
    children: [{ labelKey: 'menu.bulkUploads', path: '/configuration/bulkUploads', area: 'bulkUploads' }],
  },
  { labelKey: 'menu.safetyDemo', path: '/safteyDemo', area: 'safetyDemo' },
  { labelKey: 'menu.electricalRm', path: '/electricalRmInstallation', area: 'electricalRm' },
  { labelKey: 'menu.safety', path: '/safety', area: 'safety' },
  { labelKey: 'menu.evacuation', path: '/safetyevacuation', area: 'evacuation' },
  { labelKey: 'menu.attendance', path: '/dailyAttendanceReport', area: 'attendance' },
];

export function isMenuGroup(entry: MenuEntry): entry is MenuGroup {
  return 'children' in entry;
}

/** The menu as a role sees it: links it may not open are gone, and so are emptied groups. */
export function menuFor(role: Role): MenuEntry[] {
  const visible: MenuEntry[] = [];
  for (const entry of MENU) {
    if (isMenuGroup(entry)) {
      const children = entry.children.filter((child) => can(role, 'open', child.area));
      if (children.length > 0) visible.push({ ...entry, children });
    } else if (can(role, 'open', entry.area)) {
      visible.push(entry);
    }
  }
  return visible;
}

export function screenRouteFor(path: string): ScreenRoute | undefined {
  return SCREEN_ROUTES.find((route) => route.path === path);
}
