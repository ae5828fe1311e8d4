import { type Area, can } from './access';
import type { Role } from './roles';

/** Who may list, create and revoke a site's device tokens: writers of sites or of installation (DESIGN §4). */
export const DEVICE_TOKEN_MANAGER_AREAS: readonly Area[] = ['sites', 'installation'];

export function canManageDeviceTokens(role: Role): boolean {
  return DEVICE_TOKEN_MANAGER_AREAS.some((area) => can(role, 'write', area));
}
