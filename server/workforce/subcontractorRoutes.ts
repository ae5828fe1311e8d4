import { subcontractors } from '../db/schema';
import { siteNameListRoutes } from './siteNameList';

/** Subcontractors of a site (spec §7): admin roles only (DESIGN.md §4). */
export const subcontractorRoutes = siteNameListRoutes({
  path: 'subcontractors',
  label: 'Subcontractor',
  area: 'subcontractors',
  columns: {
    table: subcontractors,
    id: subcontractors.id,
    siteId: subcontractors.siteId,
    name: subcontractors.name,
    createdAt: subcontractors.createdAt,
    updatedAt: subcontractors.updatedAt,
  },
});
