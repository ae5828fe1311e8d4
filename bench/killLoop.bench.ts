// "Acknowledged means stored" (DESIGN §1) under load of kills: devices publish positions with
// QoS 1 to the real server process (server/main.ts on the embedded database), which is killed
// with SIGKILL at a random instant and started again, N times; then every acknowledged position
// is looked up in the database. Once with the embedded broker, once with a Mosquitto this run
// starts (only the server is killed). Goal: acknowledged == stored, storedTwice == 0, lost == 0.
// Usage: npx tsx bench/killLoop.bench.ts [--cycles 100] [--broker embedded|mosquitto|both]
import { runDurabilityScenario } from '../tests/server/helpers/durabilityScenario';
import { option } from './benchServer';
import { machine } from './measure';

const cycles = Number(option('cycles') ?? process.argv[2] ?? 100);
const which = option('broker') ?? 'both';
const brokers = (which === 'both' ? ['embedded', 'mosquitto'] : [which]) as ('embedded' | 'mosquitto')[];

for (const broker of brokers) {
  const result = await runDurabilityScenario({
    broker,
    database: 'embedded',
    serverKills: cycles,
    log: (line) => console.error(`[${broker}] ${line}`),
  });
  const { serverOutput: _output, ...figures } = result;
  console.log(JSON.stringify({ ...figures, machine: machine() }));
}
