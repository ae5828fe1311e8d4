import type { Envelope } from '../../src/domain/user';

export function ok<T>(data: T, message?: string, meta?: Envelope<T>['meta']): Envelope<T> {
  return { status: 'success', ...(message ? { message } : {}), data, ...(meta ? { meta } : {}) };
}

export function done(message: string): Envelope<never> {
  return { status: 'success', message };
}
