import type { ComponentType } from 'react';
import { lazyNamed } from './lazyNamed';

/**
 * The screen of each signed-in route, each loaded when first opened so /login downloads none of
 * them (Pixi comes with the canvas screens only). A route without an entry shows its title and a
 * "Nothing here yet" placeholder until the issue that builds it adds itself here.
 */
export const SCREENS: Readonly<Record<string, ComponentType>> = {
  '/': lazyNamed(() => import('../dashboard/HomeScreen'), 'HomeScreen'),
  '/analytics': lazyNamed(() => import('../analytics/AnalyticsScreen'), 'AnalyticsScreen'),
  '/analytics/heatmap': lazyNamed(() => import('../analytics/HeatmapScreen'), 'HeatmapScreen'),
  '/analytics/spaghetti': lazyNamed(() => import('../analytics/SpaghettiScreen'), 'SpaghettiScreen'),
  '/analytics/playback': lazyNamed(() => import('../analytics/PlaybackScreen'), 'PlaybackScreen'),
  '/maps': lazyNamed(() => import('../maps/MapsScreen'), 'MapsScreen'),
  '/nodes': lazyNamed(() => import('../nodes/NodesScreen'), 'NodesScreen'),
  '/maintenance': lazyNamed(
    () => import('../maintenance/MaintenanceToolkitScreen'),
    'MaintenanceToolkitScreen',
  ),
  '/maintenance/map': lazyNamed(() => import('../maintenance/MaintenanceMapScreen'), 'MaintenanceMapScreen'),
  '/electricalRmInstallation': lazyNamed(
    () => import('../electricalRm/ElectricalRmScreen'),
    'ElectricalRmScreen',
  ),
  '/installation': lazyNamed(() => import('../installation/InstallationScreen'), 'InstallationScreen'),
  '/safety': lazyNamed(() => import('../safety/SafetyScreen'), 'SafetyScreen'),
  '/safteyDemo': lazyNamed(() => import('../safety/SafetyDemoScreen'), 'SafetyDemoScreen'),
  '/safetyevacuation': lazyNamed(() => import('../safety/evacuation/EvacuationScreen'), 'EvacuationScreen'),
  '/workers': lazyNamed(() => import('../workers/WorkersScreen'), 'WorkersScreen'),
  '/dailyAttendanceReport': lazyNamed(() => import('../attendance/AttendanceScreen'), 'AttendanceScreen'),
  '/crews': lazyNamed(() => import('../workforce/CrewsScreen'), 'CrewsScreen'),
  '/workshifts': lazyNamed(() => import('../workforce/WorkshiftsScreen'), 'WorkshiftsScreen'),
  '/configuration/workerRoles': lazyNamed(() => import('../workforce/NameListScreen'), 'WorkerRolesScreen'),
  '/configuration/subContractors': lazyNamed(
    () => import('../workforce/NameListScreen'),
    'SubcontractorsScreen',
  ),
  '/configuration': lazyNamed(() => import('../configuration/ConfigurationScreen'), 'ConfigurationScreen'),
  '/users': lazyNamed(() => import('../users/UsersScreen'), 'UsersScreen'),
  '/productivity': lazyNamed(() => import('../productivity/ProductivityScreen'), 'ProductivityScreen'),
  '/configuration/bulkUploads': lazyNamed(
    () => import('../configuration/BulkUploadsScreen'),
    'BulkUploadsScreen',
  ),
};
