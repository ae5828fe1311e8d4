import { messages } from '../../src/domain/messages';

/**
 * An error the client caused or may see; the error handler turns it into the reply envelope. Its
 * texts come from src/domain (messages.ts and the areas' message lists), whose catalogue gives
 * them keys (messageKeys.ts).
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string = messages.malformedRequest) => new HttpError(400, message);
export const unauthorized = (message: string = messages.unauthenticated) => new HttpError(401, message);
export const forbidden = (message: string = messages.notAuthorized) => new HttpError(403, message);
export const notFound = (label = 'Resource') => new HttpError(404, messages.notFound(label));
export const conflict = (message: string) => new HttpError(409, message);
export const unprocessable = (errors: Record<string, string>, message?: string) =>
  new HttpError(422, message ?? Object.values(errors)[0] ?? messages.invalidInput, errors);
export const tooManyRequests = (message: string = messages.tooManyAttempts) => new HttpError(429, message);
