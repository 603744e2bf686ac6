/** The one error type the API throws on purpose: a stable code, an HTTP status and a human sentence. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code = 'bad_request') => new AppError(400, code, message);
export const unauthorized = (message = 'Please sign in to continue', code = 'unauthorized') =>
  new AppError(401, code, message);
export const forbidden = (message = 'You do not have permission to do this', code = 'forbidden') =>
  new AppError(403, code, message);
export const notFound = (message = 'Not found', code = 'not_found') => new AppError(404, code, message);
export const conflict = (message: string, code = 'conflict') => new AppError(409, code, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number, code = 'too_many_requests') =>
  new AppError(429, code, message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
