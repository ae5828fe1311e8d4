import { pbkdf2Sync, randomBytes } from 'node:crypto';

/**
 * Mosquitto 2's password-file hash (`mosquitto_passwd`, `$7$`): PBKDF2-HMAC-SHA512 over the raw
 * salt bytes, written as `$7$<iterations>$<base64 salt>$<base64 key>` with padded standard base64.
 * 101 iterations and a 12-byte salt are what Mosquitto 2.0 writes by default.
 */
export const MOSQUITTO_HASH_ITERATIONS = 101;
const SALT_BYTES = 12;
const KEY_BYTES = 64;

export function mosquittoPasswordHash(password: string, salt: Buffer = randomBytes(SALT_BYTES)): string {
  const key = pbkdf2Sync(password, salt, MOSQUITTO_HASH_ITERATIONS, KEY_BYTES, 'sha512');
  return `$7$${MOSQUITTO_HASH_ITERATIONS}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Whether `password` matches a `$7$` hash (as Mosquitto would check it). */
export function matchesMosquittoHash(password: string, hash: string): boolean {
  const match = /^\$7\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(hash);
  if (!match) return false;
  const [, iterations, salt, key] = match;
  const expected = Buffer.from(key, 'base64');
  const actual = pbkdf2Sync(
    password,
    Buffer.from(salt, 'base64'),
    Number(iterations),
    expected.length,
    'sha512',
  );
  return actual.equals(expected);
}
