import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handOverToMosquittoUser, type MosquittoProcess, startMosquitto } from './mosquittoProcess';
import { freePort } from './serverProcess';

export interface ScratchMosquitto {
  url: string;
  process: MosquittoProcess;
  dispose(): Promise<void>;
}

/**
 * A Mosquitto of one test alone on a free port of 127.0.0.1, anonymous. It keeps every QoS 1
 * message for a persistent session that is offline (`max_queued_messages 0`: no limit, instead of
 * dropping past 1,000): what it acknowledged while the server was dead reaches the ingest later.
 * Only the server gets killed, so the queue lives in memory (no persistence file).
 */
export async function startScratchMosquitto(): Promise<ScratchMosquitto> {
  const dir = mkdtempSync(join(tmpdir(), 'sitewatch-scratch-mosquitto-'));
  const port = await freePort();
  const confPath = join(dir, 'mosquitto.conf');
  writeFileSync(
    confPath,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      'max_queued_messages 0',
      'max_inflight_messages 20',
      // stderr is unbuffered; "running", which startMosquitto waits for, is an information line.
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      'log_type information',
      '',
    ].join('\n'),
  );
  handOverToMosquittoUser(dir);
  const mosquitto = await startMosquitto(confPath).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    url: `mqtt://127.0.0.1:${port}`,
    process: mosquitto,
    async dispose() {
      await mosquitto.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
