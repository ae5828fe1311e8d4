import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

/** Runs `npm start`'s server entry (server/main.ts) as a real process. */
export function startServerProcess(env: Record<string, string>, args: string[] = []): ServerProcess {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
    // MQTT_PORT 0: the embedded broker takes a free port, never a broker already on 1883.
    env: { ...process.env, SIMULATOR: 'off', MQTT_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export async function waitForOutput(server: ServerProcess, text: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!server.output().includes(text)) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for "${text}":\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
