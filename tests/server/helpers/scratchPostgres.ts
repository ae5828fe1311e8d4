import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './serverProcess';

const run = promisify(execFile);
const DEBIAN_POSTGRES = '/usr/lib/postgresql';

/** Debian's newest installed PostgreSQL binaries, unless POSTGRES_BIN names a folder. */
function postgresBin(): string {
  if (process.env.POSTGRES_BIN) return process.env.POSTGRES_BIN;
  const versions = existsSync(DEBIAN_POSTGRES)
    ? readdirSync(DEBIAN_POSTGRES)
        .filter((name) => existsSync(join(DEBIAN_POSTGRES, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length > 0 ? join(DEBIAN_POSTGRES, versions[0], 'bin') : join(DEBIAN_POSTGRES, '15', 'bin');
}

const BIN = postgresBin();

/** A PostgreSQL server of one test alone, which the test may kill and start again. */
export interface ScratchPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** `pg_ctl stop -m immediate`: every backend dies at once, as on a crash (no shutdown checkpoint). */
  kill(): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/** initdb and pg_ctl refuse to run as root: as root they run as the `postgres` user. */
async function asOwner(command: string, args: string[]): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(BIN, command), ...args]]
    : [join(BIN, command), args];
  await run(file, argv, { timeout: 120_000 });
}

async function ownerIds(): Promise<{ uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null;
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  return { uid, gid };
}

/** initdb in a temporary directory and start it on a free port of 127.0.0.1 (trust, no password). */
export async function startScratchPostgres(): Promise<ScratchPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'sitewatch-scratch-pg-'));
  chmodSync(dir, 0o755);
  const owner = await ownerIds();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const dataDir = join(dir, 'data');
  const port = await freePort();
  await asOwner('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on`;
  const start = () =>
    asOwner('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  const stop = (mode: 'immediate' | 'fast') => asOwner('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kill: () => stop('immediate'),
    start,
    async dispose() {
      await stop('immediate').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
