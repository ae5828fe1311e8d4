import type { Socket } from 'socket.io-client';
import { messages } from '../domain/messages';

export type LiveRequestFailure = 'network' | 'refused' | 'malformed';

/** A request of the live socket that failed; `message` is what the console shows. */
export class LiveRequestError extends Error {
  constructor(
    readonly failure: LiveRequestFailure,
    message?: string,
  ) {
    super(
      message ??
        (failure === 'network' ? messages.pleaseTryAgain : messages.somethingWentWrongContactSupport),
    );
    this.name = 'LiveRequestError';
  }
}

/** Emits with an acknowledgement and waits for it, at most `timeoutMs`. */
export async function askServer<T>(
  socket: Socket,
  timeoutMs: number,
  event: string,
  payload: unknown,
): Promise<T> {
  try {
    return (await socket.timeout(timeoutMs).emitWithAck(event, payload)) as T;
  } catch {
    throw new LiveRequestError('network');
  }
}
