import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const MOSQUITTO_BINARY = process.env.MOSQUITTO_PATH ?? '/usr/sbin/mosquitto';

export interface MosquittoProcess {
  child: ChildProcess;
  output(): string;
  /** Rereads the password file and the ACL (what an operator does after regenerating them). */
  reload(): void;
  stop(): Promise<void>;
}

/**
 * Mosquitto started as root drops to the `mosquitto` user before it reads the password file,
 * the ACL and the persistence folder, so a test running as root hands its folder over first.
 */
export function handOverToMosquittoUser(dir: string): void {
  if (process.getuid?.() !== 0) return;
  let uid: number;
  let gid: number;
  try {
    uid = Number(execFileSync('id', ['-u', 'mosquitto'], { encoding: 'utf8' }).trim());
    gid = Number(execFileSync('id', ['-g', 'mosquitto'], { encoding: 'utf8' }).trim());
  } catch {
    return;
  }
  const walk = (path: string) => {
    chownSync(path, uid, gid);
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(path, entry.name));
      else chownSync(join(path, entry.name), uid, gid);
    }
  };
  walk(dir);
}

/** A real Mosquitto on `confPath`; resolves once it logs that it is running. */
export async function startMosquitto(confPath: string, timeoutMs = 10_000): Promise<MosquittoProcess> {
  let output = '';
  const child = spawn(MOSQUITTO_BINARY, ['-c', confPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + timeoutMs;
  while (!/mosquitto version \S+ running/.test(output)) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited early:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`mosquitto did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    output: () => output,
    reload: () => {
      child.kill('SIGHUP');
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
