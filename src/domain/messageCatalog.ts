import { ACTIVITY_STATUS_MESSAGES } from './activityStatus';
import { ANALYTICS_MESSAGES } from './analytics';
import { APPROVAL_FIXED_MESSAGES } from './anchorApproval';
import { BULK_MESSAGES } from './bulkKinds';
import { EVACUATION_MESSAGES } from './evacuation';
import { floorMessages } from './floorValidation';
import { GRID_FIELD_MESSAGES } from './gridFields';
import { MAINTENANCE_MESSAGES } from './maintenanceSettings';
import { CORE_MESSAGE_TEXTS, createMessageCatalog, prefixed } from './messageCatalogCore';
import { POWER_BI_MESSAGES } from './powerBi';
import { RADIO_MODEL_MESSAGES } from './radio/radioModel';
import { SAFETY_DEMO_MESSAGES } from './safetyDemo';
import { ATTENDANCE_MESSAGES } from './schemas/attendance';
import { electricalRoomMessages } from './schemas/electricalRooms';
import { zoneMessages } from './schemas/floors';
import { installationMessages } from './schemas/installation';
import { inventoryMessages } from './schemas/inventory';
import { nodeMessages } from './schemas/nodes';
import { PRODUCTIVITY_MESSAGES } from './schemas/productivity';
import { UPLOAD_FILE_MESSAGES } from './uploadFile';
import { USER_MANAGEMENT_MESSAGES } from './userManagement';
import { workerMessages } from './workerValidation';
import { PERMIT_MESSAGES } from './workPermits';
import { BREAK_MESSAGES } from './workshiftBreaks';

export { labelKey, type MessageKey, type MessageParams } from './messageCatalogCore';

/**
 * Every text the server sends or a screen checks on its own, by key: the core texts
 * (messageCatalogCore.ts, all the login page needs) and each area's (one key per text: the floor
 * and worker image rule share one). The server keys its replies with it (server/http/messageKeys.ts).
 */
const CATALOG = createMessageCatalog({
  ...CORE_MESSAGE_TEXTS,
  ...prefixed('server.evacuation', EVACUATION_MESSAGES),
  ...prefixed('server.floor', floorMessages),
  ...prefixed('server.zone', zoneMessages),
  ...prefixed('server.inventory', inventoryMessages),
  ...prefixed('server.worker', workerMessages, ['label', 'image']),
  ...prefixed('server.workshift.breaks', BREAK_MESSAGES),
  ...prefixed('server.safetyDemo', SAFETY_DEMO_MESSAGES),
  ...prefixed('server.analytics', ANALYTICS_MESSAGES),
  ...prefixed('server.attendance', ATTENDANCE_MESSAGES),
  ...prefixed('server.nodes', nodeMessages),
  ...prefixed('server.maintenance', MAINTENANCE_MESSAGES),
  ...prefixed('server.radio', RADIO_MODEL_MESSAGES),
  ...prefixed('server.installation', installationMessages),
  ...prefixed('server.approval', APPROVAL_FIXED_MESSAGES),
  ...prefixed('server.permit', PERMIT_MESSAGES),
  ...prefixed('server.gridField', GRID_FIELD_MESSAGES),
  ...prefixed('server.electricalRoom', electricalRoomMessages),
  ...prefixed('server.bulk', BULK_MESSAGES),
  ...prefixed('server.upload', UPLOAD_FILE_MESSAGES),
  ...prefixed('server.productivity', PRODUCTIVITY_MESSAGES),
  // The others have values in them (messageCatalogCore.ts TEMPLATES).
  ...prefixed('server.activity', {
    stale: ACTIVITY_STATUS_MESSAGES.stale,
    reasonRequired: ACTIVITY_STATUS_MESSAGES.reasonRequired,
  }),
  ...prefixed('server.users', USER_MANAGEMENT_MESSAGES),
  ...prefixed('server.powerBi', POWER_BI_MESSAGES),
});

/** The key and values of a text the server sends, or undefined for a text outside the catalogue. */
export function messageKeyOf(text: string): ReturnType<typeof CATALOG.keyOf> {
  return CATALOG.keyOf(text);
}

/** Every key the server can send, for the check that both languages have each one. */
export function messageCatalogKeys(): string[] {
  return CATALOG.keys();
}
