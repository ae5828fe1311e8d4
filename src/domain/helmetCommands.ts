/**
 * Commands the server sends a site's helmets on `{root}/{siteId}/commands` with QoS 1 (DESIGN §5).
 * A helmet that sounded an evacuation alarm or a redirect answers on `…/events` with
 * `{ tag, ts, type: "alarmReceived" }`.
 */
export const HELMET_COMMAND_TYPES = ['evacuationAlarm', 'redirect', 'alarmCleared'] as const;
export type HelmetCommandType = (typeof HELMET_COMMAND_TYPES)[number];

/** The tag of a command every helmet of the site obeys. */
export const EVERY_HELMET = '*';

/** The last segment of the commands topic (`{root}/{siteId}/commands`). */
export const COMMANDS_TOPIC_KIND = 'commands';

export interface HelmetCommand {
  /** The helmet's tag (wnt_inventory_id), or `*` for every helmet of the site. */
  tag: string;
  /** When the server sent it. A confirmation stamped earlier is not an answer to it. */
  ts: string;
  type: HelmetCommandType;
  evacuationSessionId?: string;
  /** Where to go: the zone of a redirect. */
  zoneId?: number;
}

/** What an evacuation asks helmets to sound: the alarm at its start, a new way out later. */
export type AlarmKind = 'evacuate' | 'redirect';

const COMMAND_OF_ALARM: Record<AlarmKind, HelmetCommandType> = {
  evacuate: 'evacuationAlarm',
  redirect: 'redirect',
};

/** The commands that a helmet confirms with `alarmReceived`. */
export function expectsConfirmation(type: HelmetCommandType): boolean {
  return type === 'evacuationAlarm' || type === 'redirect';
}

/** One command per helmet tag: a helmet hears only its own, so each can be confirmed on its own. */
export function alarmCommands(options: {
  kind: AlarmKind;
  evacuationSessionId: string;
  sentAt: Date;
  tags: readonly string[];
  zoneId?: number;
}): HelmetCommand[] {
  const ts = options.sentAt.toISOString();
  const type = COMMAND_OF_ALARM[options.kind];
  return options.tags.map((tag) => ({
    tag,
    ts,
    type,
    evacuationSessionId: options.evacuationSessionId,
    ...(options.zoneId === undefined ? {} : { zoneId: options.zoneId }),
  }));
}

/** The all-clear of an evacuation, one per helmet tag. */
export function alarmClearedCommands(options: {
  evacuationSessionId: string;
  sentAt: Date;
  tags: readonly string[];
}): HelmetCommand[] {
  const ts = options.sentAt.toISOString();
  return options.tags.map((tag) => ({
    tag,
    ts,
    type: 'alarmCleared',
    evacuationSessionId: options.evacuationSessionId,
  }));
}

/** Whether a helmet with this tag obeys the command. */
export function isAddressedTo(command: HelmetCommand, tag: string): boolean {
  return command.tag === EVERY_HELMET || command.tag === tag;
}

/** A command as a helmet reads it off the topic, or null when it is not one. */
export function parseHelmetCommand(raw: Uint8Array | string): HelmetCommand | null {
  let json: unknown;
  try {
    json = JSON.parse(typeof raw === 'string' ? raw : new TextDecoder().decode(raw));
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const { tag, ts, type, evacuationSessionId, zoneId } = json as Record<string, unknown>;
  if (typeof tag !== 'string' || typeof ts !== 'string' || Number.isNaN(Date.parse(ts))) return null;
  if (!HELMET_COMMAND_TYPES.includes(type as HelmetCommandType)) return null;
  if (evacuationSessionId !== undefined && typeof evacuationSessionId !== 'string') return null;
  if (zoneId !== undefined && !Number.isInteger(zoneId)) return null;
  return {
    tag,
    ts,
    type: type as HelmetCommandType,
    ...(evacuationSessionId === undefined ? {} : { evacuationSessionId }),
    ...(zoneId === undefined ? {} : { zoneId: zoneId as number }),
  };
}
