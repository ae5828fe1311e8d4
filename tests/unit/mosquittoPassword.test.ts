import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesMosquittoHash, mosquittoPasswordHash } from '../../server/mqtt/mosquittoPassword';
import {
  handOverToMosquittoUser,
  type MosquittoProcess,
  startMosquitto,
} from '../server/helpers/mosquittoProcess';
import { freePort } from '../server/helpers/serverProcess';

const MOSQUITTO_PASSWD = process.env.MOSQUITTO_PASSWD_PATH ?? '/usr/bin/mosquitto_passwd';

describe('mosquittoPasswordHash', () => {
  it("writes Mosquitto 2's $7$ PBKDF2-SHA512 format with a fresh 12-byte salt", () => {
    const hash = mosquittoPasswordHash('device secret');
    const [, kind, iterations, salt, key] = hash.split('$');
    expect(kind).toBe('7');
    expect(iterations).toBe('101');
    expect(Buffer.from(salt, 'base64')).toHaveLength(12);
    expect(Buffer.from(key, 'base64')).toHaveLength(64);
    expect(mosquittoPasswordHash('device secret')).not.toBe(hash);
  });

  it('derives the same key as mosquitto_passwd for the same salt and password', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sw-passwd-'));
    try {
      const file = join(dir, 'passwords');
      execFileSync(MOSQUITTO_PASSWD, ['-c', '-b', file, 'gateway', 'pa:ss w0rd/é']);
      const theirs = readFileSync(file, 'utf8').trim().slice('gateway:'.length);
      const salt = Buffer.from(theirs.split('$')[3], 'base64');
      expect(mosquittoPasswordHash('pa:ss w0rd/é', salt)).toBe(theirs);
      expect(matchesMosquittoHash('pa:ss w0rd/é', theirs)).toBe(true);
      expect(matchesMosquittoHash('pa:ss w0rd', theirs)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('in a password file read by a real mosquitto', () => {
    let dir: string;
    let broker: MosquittoProcess | undefined;
    let url: string;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'sw-mosquitto-'));
      const port = await freePort();
      url = `mqtt://127.0.0.1:${port}`;
      writeFileSync(join(dir, 'passwords'), `17:${mosquittoPasswordHash('token-of-seventeen')}\n`);
      writeFileSync(
        join(dir, 'mosquitto.conf'),
        `listener ${port} 127.0.0.1\nallow_anonymous false\npassword_file ${join(dir, 'passwords')}\n`,
      );
      handOverToMosquittoUser(dir);
      broker = await startMosquitto(join(dir, 'mosquitto.conf'));
    });
    afterAll(async () => {
      await broker?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    const connectAs = (username: string, password: string) =>
      connectAsync(url, { username, password, reconnectPeriod: 0, connectTimeout: 5000 });

    it('lets the right password in', async () => {
      const client = await connectAs('17', 'token-of-seventeen');
      expect(client.connected).toBe(true);
      await client.endAsync();
    });

    it('refuses a wrong password', async () => {
      await expect(connectAs('17', 'token-of-eighteen')).rejects.toThrow(/Not authorized|not authorised/i);
    });
  });
});
