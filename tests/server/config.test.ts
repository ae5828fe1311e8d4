import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('the configuration schema', () => {
  it('takes the defaults when nothing is set, and empty values count as unset', () => {
    const config = loadConfig({ PORT: '', SIMULATOR: '' });
    expect(config.port).toBe(3000);
    expect(config.safetyPort).toBe(8080);
    expect(config.simulator).toBe(true);
    expect(config.mqttTls).toBeNull();
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('reads good values', () => {
    const config = loadConfig({
      PORT: '4000',
      SIMULATOR: 'OFF',
      OFFLINE_AFTER: '90',
      DATABASE_URL: 'postgres://u:p@db:5432/sw',
      MQTT_TLS_CERT: 'cert.pem',
      MQTT_TLS_KEY: 'key.pem',
      TRUST_PROXY: '10.0.0.0/8',
    });
    expect(config.port).toBe(4000);
    expect(config.simulator).toBe(false);
    expect(config.offlineAfterSeconds).toBe(90);
    expect(config.databaseUrl).toBe('postgres://u:p@db:5432/sw');
    expect(config.mqttTls?.port).toBe(8883);
    expect(config.trustProxy).toBe('10.0.0.0/8');
  });

  it('reports every bad variable at once, each with its value and what is expected', () => {
    const problems = problemsOf({
      PORT: 'abc',
      SAFETY_PORT: '70000',
      SIMULATOR: 'maybe',
      OFFLINE_AFTER: '-5',
      REDIS_URL: 'localhost:6379',
      MQTT_TOPIC_ROOT: 'site/#',
      MQTT_TLS_CERT: 'cert.pem',
    });
    expect(problems).toHaveLength(7);
    expect(problems).toContain('PORT="abc" is not valid: expected a port number from 0 to 65535');
    expect(problems).toContain('SAFETY_PORT="70000" is not valid: expected a port number from 0 to 65535');
    expect(problems.find((p) => p.startsWith('SIMULATOR="maybe"'))).toMatch(/expected on or off/);
    expect(problems).toContain('OFFLINE_AFTER="-5" is not valid: expected a whole number (0 or more)');
    expect(problems.find((p) => p.startsWith('REDIS_URL="localhost:6379"'))).toMatch(/redis:\/\//);
    expect(problems.find((p) => p.startsWith('MQTT_TOPIC_ROOT="site/#"'))).toMatch(/without wildcards/);
    expect(problems).toContain(
      'MQTT_TLS_KEY is not set: MQTT_TLS_CERT and MQTT_TLS_KEY must be set together',
    );
  });

  it('stops the start with the messages and a non-zero exit code, not a stack trace', async () => {
    // What server/main.ts does first, without starting the rest of the server.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        "import('./server/config.ts').then((c) => c.loadConfigOrExit(process.env, []))",
      ],
      {
        env: { ...process.env, PORT: 'eighty', LOGIN_MAX_FAILURES: 'many' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain('Sitewatch cannot start. The configuration has 2 bad variable(s):');
    expect(output).toContain('PORT="eighty" is not valid: expected a port number from 0 to 65535');
    expect(output).toContain('LOGIN_MAX_FAILURES="many" is not valid');
    expect(output).not.toMatch(/\n\s+at /);
  });
});
