import { HELMET_COMMAND_TYPES } from '../../src/domain/helmetCommands';
import { MAX_NEIGHBORS_PER_REPORT, NEIGHBOR_RSSI_DBM } from '../../src/domain/ingestValidation';
import { HELMET_EVENT_TYPES } from '../../src/domain/live';

const quoted = (values: readonly string[]) => values.map((value) => `"${value}"`).join(' \\| ');

/**
 * The MQTT topics devices use (DESIGN §5), written by hand beside the types they describe
 * (src/domain/live.ts, src/domain/helmetCommands.ts); the type names come from the code.
 */
export function mqttTopicsReference(): string[] {
  return [
    '## MQTT topics',
    '',
    'Topics are `{root}/{siteId}/{kind}` (root `MQTT_TOPIC_ROOT`, `sitewatch` by default). A device',
    "logs in with a device token of its site (user name: the token's id, password: the token),",
    "publishes with QoS 1 only under its own site and subscribes only to its own site's commands.",
    'Every timestamp is ISO-8601 with an offset.',
    '',
    '| topic | direction | message | notes |',
    '|---|---|---|---|',
    '| `…/positions` | device → server | `{ tag, ts, lat, long, floorId, online, active }`, one object or an array | committed before the PUBACK |',
    '| `…/nodes` | device → server | `{ networkId, nodeId, type, bufferUsage, linkQuality, batteryVoltage, displacementError, ts, lat, long, neighbors? }`, one or an array; `neighbors`: `[{ nodeId, linkQuality, rssi? }]` | anchor and sink diagnostics; see below |',
    `| \`…/events\` | device → server | \`{ tag, ts, type }\`, one or an array; type ${quoted(HELMET_EVENT_TYPES)} | \`alarmReceived\`: the helmet sounded an alarm command |`,
    `| \`…/commands\` | server → devices | \`{ tag, ts, type, evacuationSessionId?, zoneId? }\`, one per message, QoS 1; type ${quoted(HELMET_COMMAND_TYPES)} | see below |`,
    '',
    'Starting an evacuation sends `evacuationAlarm` to every included helmet, one message per helmet',
    '(`tag` is its `wnt_inventory_id`; `"*"` would address every helmet of the site); a new way out',
    'sends `redirect` with the `zoneId` to walk to; the end sends `alarmCleared`. `ts` is when the',
    'server sent the command and `evacuationSessionId` names the evacuation. A helmet (or its',
    'gateway) confirms an `evacuationAlarm` or a `redirect` by publishing `{ tag, ts, type:',
    '"alarmReceived" }` on `…/events`, stamped with the time it sounded. A command carries no id to',
    "echo, so the server counts a command delivered by that helmet's first `alarmReceived` stamped at",
    "or after the command's `ts` (and not after its evacuation ended); one stamped earlier, or a",
    'repeat, changes nothing. `alarmCleared` needs no confirmation.',
    '',
    'A node report names the node by its `wnt_inventory_id`; `lat`/`long` are where the network',
    'computed it. `neighbors` lists the radio links it hears (absent: none): `nodeId` another node,',
    `\`linkQuality\` 0–100, \`rssi\` in dBm (${NEIGHBOR_RSSI_DBM.min} to ${NEIGHBOR_RSSI_DBM.max}) when measured, at most ${MAX_NEIGHBORS_PER_REPORT}`,
    'a report. A bad neighbour (or one named twice, or the node itself) is counted as a rejection',
    'and dropped; the report is stored with the others. The server ignores the reported',
    '`displacementError`: it stores the metres between where the node was placed and `lat`/`long`',
    "(none for a node not placed), and an anchor further than its site's threshold for a minute",
    'raises an `anchorMoved` incident. Node reports are kept as long as positions',
    '(`POSITIONS_RETENTION_DAYS`); older ones are refused (`beyondRetention`).',
    '',
  ];
}
