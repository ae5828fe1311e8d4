/** An error the client caused or may see; the error handler turns it into the reply envelope. */
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

export const badRequest = (message = 'Malformed request') => new HttpError(400, message);
export const unauthorized = (message = 'Unauthenticated') => new HttpError(401, message);
export const forbidden = (message = 'Not Authorized') => new HttpError(403, message);
export const notFound = (label = 'Resource') => new HttpError(404, `${label} not found`);
export const conflict = (message: string) => new HttpError(409, message);
export const unprocessable = (errors: Record<string, string>, message?: string) =>
  new HttpError(422, message ?? Object.values(errors)[0] ?? 'Invalid input', errors);
export const tooManyRequests = (message = 'Too many attempts, please try again later') =>
  new HttpError(429, message);
