import { describe, expect, it } from 'vitest';
import { ApiError, cancelledError } from '../../src/api/apiError';
import { shouldRetryRead } from '../../src/api/retryPolicy';

describe('which failed reads are tried again', () => {
  it('retries once when there was no response or the server failed', () => {
    expect(shouldRetryRead(0, new ApiError({ kind: 'network', message: 'offline' }))).toBe(true);
    expect(shouldRetryRead(0, new ApiError({ kind: 'http', status: 503, message: 'down' }))).toBe(true);
    expect(shouldRetryRead(1, new ApiError({ kind: 'network', message: 'offline' }))).toBe(false);
  });

  it('never retries a cancelled call, a refusal or a bad request', () => {
    expect(shouldRetryRead(0, cancelledError())).toBe(false);
    expect(
      shouldRetryRead(0, new ApiError({ kind: 'forbidden', status: 403, message: 'x', handled: true })),
    ).toBe(false);
    expect(shouldRetryRead(0, new ApiError({ kind: 'unauthorized', status: 401, message: 'x' }))).toBe(false);
    expect(shouldRetryRead(0, new ApiError({ kind: 'http', status: 404, message: 'Site not found' }))).toBe(
      false,
    );
    expect(shouldRetryRead(0, new ApiError({ kind: 'reply', message: 'not a list' }))).toBe(false);
  });
});
