import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { stdSerializers } from 'pino';
import type { ErrorBody } from '../../shared/errors';
import { AppError } from '../lib/app-error';
import { ObjectNotFoundError } from '../storage/storage';

interface ClientError {
  status: number;
  code: string;
  message: string;
}

const FASTIFY_CLIENT_ERRORS: Record<string, ClientError> = {
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

/**
 * Joins zod issues into one sentence naming each field ("email: must be a valid email address");
 * a field the request does not take is named as such ('body: "crossfadeSeconds" is not a field
 * this request takes.'), and when that is all that is wrong the code says so: `unknown_fields`.
 */
function describeValidation(error: FastifyError): { code: string; message: string } {
  if (!hasZodFastifySchemaValidationErrors(error)) return { code: 'validation_failed', message: error.message };
  const sentences = error.validation.map((v) => {
    const field = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const where = field || (error.validationContext === 'body' ? 'body' : (error.validationContext ?? 'request'));
    const keys = v.keyword === 'unrecognized_keys' ? (v.params as { keys?: unknown }).keys : undefined;
    if (Array.isArray(keys) && keys.length > 0) {
      const named = keys.map((key) => JSON.stringify(String(key).slice(0, 100))).join(', ');
      return `${where}: ${named} ${keys.length === 1 ? 'is not a field' : 'are not fields'} this request takes.`;
    }
    return `${where}: ${v.message}`;
  });
  const onlyUnknown = error.validation.every((v) => v.keyword === 'unrecognized_keys');
  return { code: onlyUnknown ? 'unknown_fields' : 'validation_failed', message: sentences.join('; ') };
}

/**
 * PostgreSQL errors that mean the request itself was wrong (class 22, data exception: text it
 * cannot store, a number or date out of range) or collided with the data (class 23, integrity
 * constraint: a duplicate, a row deleted meanwhile). The schemas refuse such input first; this is
 * the net for what gets past them, and for races. Everything else in the database is a 500.
 */
const DATABASE_CLIENT_ERRORS: Record<string, ClientError> = {
  '22001': { status: 400, code: 'value_too_long', message: 'A value in this request is too long.' },
  '22003': { status: 400, code: 'value_out_of_range', message: 'A number in this request is out of range.' },
  '22007': { status: 400, code: 'invalid_date', message: 'A date in this request is not valid.' },
  '22008': { status: 400, code: 'invalid_date', message: 'A date in this request is out of range.' },
  '22021': {
    status: 400,
    code: 'invalid_text',
    message: 'Text in this request contains characters that cannot be stored.',
  },
  '22P05': {
    status: 400,
    code: 'invalid_text',
    message: 'Text in this request contains characters that cannot be stored.',
  },
  '22P02': { status: 400, code: 'invalid_value', message: 'A value in this request is not in the expected format.' },
  '23502': { status: 400, code: 'missing_value', message: 'A required value is missing from this request.' },
  // A race past a service's own check (two requests taking one email): still a clean 409.
  '23505': {
    status: 409,
    code: 'conflict',
    message: 'This conflicts with data that already exists. Please try again.',
  },
};
const DATA_EXCEPTION: ClientError = {
  status: 400,
  code: 'invalid_value',
  message: 'A value in this request is not valid.',
};
const CONSTRAINT_VIOLATION: ClientError = {
  status: 409,
  code: 'conflict',
  message: 'This request conflicts with the current data. Please reload and try again.',
};
/** 23503 on an insert or update: what the row points to is gone (a user deleted mid-request). */
const REFERENCE_GONE: ClientError = {
  status: 404,
  code: 'reference_not_found',
  message: 'Something this request refers to no longer exists.',
};
/** 23503 on a delete: other rows still point to this one. */
const STILL_REFERENCED: ClientError = {
  status: 409,
  code: 'still_referenced',
  message: 'This is still in use by other data and cannot be removed.',
};

const CLIENT_SQLSTATE = /^2[23][0-9A-Z]{3}$/;
const MAX_CAUSE_DEPTH = 5;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The first of the error and its causes that matches (Drizzle wraps the driver's error in its own). */
function findInCauses(
  error: unknown,
  matches: (candidate: Record<string, unknown>) => boolean,
): Record<string, unknown> | null {
  let current: unknown = error;
  for (let depth = 0; isObject(current) && depth <= MAX_CAUSE_DEPTH; depth += 1) {
    if (matches(current)) return current;
    current = current.cause;
  }
  return null;
}

function answerFor(sqlState: string, message: string): ClientError {
  if (sqlState === '23503') return message.startsWith('update or delete') ? STILL_REFERENCED : REFERENCE_GONE;
  return DATABASE_CLIENT_ERRORS[sqlState] ?? (sqlState.startsWith('22') ? DATA_EXCEPTION : CONSTRAINT_VIOLATION);
}

/** The answer to a database error that bad input or a race causes, or null for a real failure. */
function describeDatabaseError(error: unknown): (ClientError & { sqlState: string }) | null {
  const found = findInCauses(error, (e) => typeof e.code === 'string' && CLIENT_SQLSTATE.test(e.code));
  if (!found) return null;
  const sqlState = String(found.code);
  return { ...answerFor(sqlState, typeof found.message === 'string' ? found.message : ''), sqlState };
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
    if (error instanceof ObjectNotFoundError) {
      // A stored file that went away while the request read it (its owner deleted it, the sweep).
      return send(404, {
        code: 'file_not_found',
        message: 'This file is no longer available. It may have been deleted or may have expired.',
      });
    }
    if (error.validation) {
      return send(400, describeValidation(error));
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) return send(known.status, { code: known.code, message: known.message });

    if (error.statusCode === 429) {
      return send(429, { code: 'rate_limited', message: 'Too many requests. Please wait a moment and try again.' });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500 && !isResponseSerializationError(error)) {
      return send(error.statusCode, { code: 'bad_request', message: error.message });
    }

    const database = describeDatabaseError(error);
    if (database) {
      // Worth a look (a schema that lets bad input through), but not an alarm: the client gets a 4xx.
      if (database.sqlState !== '23505')
        request.log.warn({ err: error, sqlState: database.sqlState }, 'database refused the request');
      return send(database.status, { code: database.code, message: database.message });
    }

    const errorId = randomUUID();
    request.log.error({ err: error, errorId }, 'unhandled error');
    return send(500, {
      code: 'internal_error',
      message: `Something went wrong on our side. Please try again. (reference ${errorId})`,
    });
  });
}

/*
 * Logging errors without the data in them. A failed Drizzle query carries its parameters three
 * times (its message, its stack and a `params` field, and PGlite's error repeats them), and the
 * driver's `detail` quotes the row ("Failing row contains (..., $argon2id$...)"): a failed insert
 * of a user would log their email and password hash. The logger's `err` serializer therefore logs
 * a sanitized copy of every error and its causes: the query text (placeholders only), the
 * SQLSTATE, constraint, table and column, never the values.
 */

/** Fields of a PostgreSQL error that name things without quoting data. */
const DATABASE_ERROR_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine'];
/** Fields no error of ours is logged with, whatever threw it. */
const DATA_FIELDS = new Set([
  'params',
  'parameters',
  'detail',
  'where',
  'internalQuery',
  'queryOptions',
  'body',
  'password',
  'passwordHash',
]);
const SQLSTATE = /^[0-9A-Z]{5}$/;
/** From "\nparams: " to the first stack frame (or the end): Drizzle's rendering of the values. */
const RENDERED_PARAMS = /\nparams: [\s\S]*?(?=\n\s+at |$)/g;

const isDatabaseError = (error: Record<string, unknown>) =>
  typeof error.code === 'string' && SQLSTATE.test(error.code) && typeof error.severity === 'string';
/** Drizzle's DrizzleQueryError, recognised by shape (http/ does not import drizzle-orm). */
const isQueryError = (error: Record<string, unknown>) => typeof error.query === 'string' && 'params' in error;

function safeMessage(error: Error & Record<string, unknown>): string {
  // A data exception's message quotes the value it refused (value "2147483648" is out of range).
  if (isDatabaseError(error))
    return String(error.code).startsWith('22') ? error.message.replace(/"[^"]*"/g, '"…"') : error.message;
  if (isQueryError(error)) return `Failed query: ${String(error.query)}`;
  return error.message.replace(RENDERED_PARAMS, '\nparams: [redacted]');
}

/** Which own fields of an error its log copy keeps. */
function keptField(error: Record<string, unknown>): (key: string) => boolean {
  if (isDatabaseError(error)) return (key) => DATABASE_ERROR_FIELDS.includes(key);
  if (isQueryError(error)) return (key) => key === 'query';
  return (key) => !DATA_FIELDS.has(key);
}

function sanitizedCopy(error: Error, depth: number): Error {
  const fields = error as Error & Record<string, unknown>;
  const message = safeMessage(fields);
  const copy = new Error(message) as Error & Record<string, unknown>;
  copy.name = error.name;
  const stack = error.stack ?? '';
  copy.stack = stack.replace(error.message, () => message).replace(RENDERED_PARAMS, '\nparams: [redacted]');
  const keep = keptField(fields);
  for (const [key, value] of Object.entries(error)) {
    if (key !== 'cause' && keep(key)) copy[key] = value;
  }
  if (error.cause instanceof Error && depth < MAX_CAUSE_DEPTH) copy.cause = sanitizedCopy(error.cause, depth + 1);
  return copy;
}

/** The logger's `err` serializer: pino's own, on a copy of the error without the data it carries. */
export function serializeError(error: Error): ReturnType<typeof stdSerializers.err> {
  // pino hands over whatever was logged as `err`; its own serializer passes non-errors through.
  if (!(error instanceof Error)) return stdSerializers.err(error);
  const serialized = stdSerializers.err(sanitizedCopy(error, 0));
  serialized.type = error.constructor.name || error.name;
  // pino folds causes into the message and stack only: lift the database's SQLSTATE, constraint and table.
  const database = findInCauses(error, isDatabaseError);
  for (const key of DATABASE_ERROR_FIELDS) {
    if (database && serialized[key] === undefined && database[key] !== undefined) serialized[key] = database[key];
  }
  return serialized;
}

/** What the logger never writes: credentials in headers, request bodies, passwords and their hashes. */
export const LOG_REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'req.body',
  'body',
  '*.body',
  'password',
  '*.password',
  'passwordHash',
  '*.passwordHash',
  'password_hash',
  '*.password_hash',
];
