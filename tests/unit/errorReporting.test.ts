import { describe, expect, it } from 'vitest';
import {
  createErrorReporter,
  errorReportingOptions,
  MAX_WAITING_ERRORS,
} from '../../src/views/errorReporting';

describe('error reporting options', () => {
  it('samples 30% of traces and stays off without a DSN', () => {
    expect(errorReportingOptions(undefined)).toEqual({
      dsn: undefined,
      enabled: false,
      tracesSampleRate: 0.3,
    });
    expect(errorReportingOptions('')).toMatchObject({ enabled: false });
  });

  it('sends to the DSN given at build time', () => {
    expect(errorReportingOptions('https://key@errors.example/1')).toEqual({
      dsn: 'https://key@errors.example/1',
      enabled: true,
      tracesSampleRate: 0.3,
    });
  });
});

describe('error reporter', () => {
  type Sent = { error: unknown; componentStack?: string };
  const fakeSentry = () => {
    const sent: Sent[] = [];
    const started: unknown[] = [];
    const sentry = {
      init: (options: unknown) => started.push(options),
      browserTracingIntegration: () => ({ name: 'BrowserTracing' }),
      captureException: (error: unknown) => sent.push({ error }),
      captureReactException: (error: unknown, info: { componentStack?: string }) =>
        sent.push({ error, componentStack: info.componentStack }),
    };
    return { sent, started, load: async () => sentry as unknown as typeof import('../../src/views/sentry') };
  };

  it('keeps what is reported before Sentry loads and sends it once started', async () => {
    const fake = fakeSentry();
    const events = new EventTarget();
    const reporter = createErrorReporter({
      dsn: 'https://key@errors.example/1',
      loadSentry: fake.load,
      events,
    });
    const early = new Error('before load');
    reporter.report(early, { kind: 'boundary', componentStack: '\n    at Screen' });
    const uncaught = new Error('window error');
    events.dispatchEvent(Object.assign(new Event('error'), { error: uncaught }));
    expect(fake.sent).toEqual([]);

    await reporter.start();
    expect(fake.started).toHaveLength(1);
    expect(fake.sent).toEqual([{ error: early, componentStack: '\n    at Screen' }, { error: uncaught }]);

    const late = new Error('after load');
    reporter.report(late, { kind: 'uncaught' });
    events.dispatchEvent(
      Object.assign(new Event('error'), { error: new Error('heard by Sentry itself now') }),
    );
    expect(fake.sent.map((entry) => entry.error)).toEqual([early, uncaught, late]);
  });

  it('never downloads Sentry nor keeps errors without a DSN', async () => {
    let loads = 0;
    const reporter = createErrorReporter({
      dsn: undefined,
      loadSentry: async () => {
        loads += 1;
        return fakeSentry().load();
      },
      events: new EventTarget(),
    });
    reporter.report(new Error('dropped'), { kind: 'window' });
    await reporter.start();
    expect(loads).toBe(0);
  });

  it('keeps at most MAX_WAITING_ERRORS while Sentry loads', async () => {
    const fake = fakeSentry();
    const reporter = createErrorReporter({
      dsn: 'https://key@errors.example/1',
      loadSentry: fake.load,
      events: new EventTarget(),
    });
    for (let i = 0; i < MAX_WAITING_ERRORS + 5; i++) reporter.report(new Error(`e${i}`), { kind: 'window' });
    await reporter.start();
    expect(fake.sent).toHaveLength(MAX_WAITING_ERRORS);
  });
});
