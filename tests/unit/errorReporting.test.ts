import { describe, expect, it } from 'vitest';
import { errorReportingOptions } from '../../src/views/errorReporting';

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
