import { workerRoles } from '../db/schema';
import { siteNameListRoutes } from './siteNameList';

/** Worker roles of a site (spec §7): admin roles only (DESIGN.md §4). */
export const workerRoleRoutes = siteNameListRoutes({
  path: 'worker-roles',
  label: 'Worker role',
  area: 'workerRoles',
  columns: {
    table: workerRoles,
    id: workerRoles.id,
    siteId: workerRoles.siteId,
    name: workerRoles.name,
    createdAt: workerRoles.createdAt,
    updatedAt: workerRoles.updatedAt,
  },
});
