import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody } from '../../shared/errors';
import { AppError } from '../lib/app-error';

const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'invalid_json',
    message: 'The request body is empty but its Content-Type is application/json.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'body_too_large', message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'This content type is not supported here; send JSON.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'invalid_content_length',
    message: 'The Content-Length header does not match the body.',
  },
};

/** Joins zod issues into one sentence naming each field ("email: must be a valid email address"). */
function describeValidation(error: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return error.validation
      .map((v) => {
        const field = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        const where = field || (error.validationContext === 'body' ? 'body' : (error.validationContext ?? 'request'));
        return `${where}: ${v.message}`;
      })
      .join('; ');
  }
  return error.message;
}

/** PostgreSQL's unique_violation, whether the driver error is thrown as is or wrapped by Drizzle. */
function isUniqueViolation(error: unknown): boolean {
  const code = (e: unknown) => (typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined);
  return code(error) === '23505' || code((error as { cause?: unknown }).cause) === '23505';
}

/** The one place that turns any thrown error into `{code, message}` with the right status. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (status: number, body: ErrorBody) => reply.status(status).type('application/json').send(body);

    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      return send(error.status, { code: error.code, message: error.message });
    }
    if (error.validation) {
      return send(400, { code: 'validation_failed', message: describeValidation(error) });
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) return send(known.status, { code: known.code, message: known.message });

    if (error.statusCode === 429) {
      return send(429, { code: 'rate_limited', message: 'Too many requests. Please wait a moment and try again.' });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500 && !isResponseSerializationError(error)) {
      return send(error.statusCode, { code: 'bad_request', message: error.message });
    }

    if (isUniqueViolation(error)) {
      // A race past a service's own check (two requests taking one email): still a clean 409.
      return send(409, { code: 'conflict', message: 'This conflicts with data that already exists. Please try again.' });
    }

    const errorId = randomUUID();
    request.log.error({ err: error, errorId }, 'unhandled error');
    return send(500, {
      code: 'internal_error',
      message: `Something went wrong on our side. Please try again. (reference ${errorId})`,
    });
  });
}
