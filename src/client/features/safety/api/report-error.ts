import { ApiError } from '../../../lib/api-client';

/** The report form's fields, as the body of POST /api/reports names them. */
export const REPORT_FIELDS = ['video', 'reason', 'description', 'contact', 'statement'] as const;
export type ReportField = (typeof REPORT_FIELDS)[number];
export type ReportFieldErrors = Partial<Record<ReportField, string>>;

const isReportField = (name: string): name is ReportField => (REPORT_FIELDS as readonly string[]).includes(name);

/**
 * A refused report: the API's error, with the sentences the server gave per field (its `fields`,
 * or, from a validation answer without them, the parts of "video: …; contact: …").
 */
export class ReportError extends ApiError {
  readonly fields: ReportFieldErrors;

  constructor(status: number, statusText: string, bodyText: string) {
    super(status, statusText, bodyText);
    this.name = 'ReportError';
    this.fields = readFields(bodyText, this.code, this.serverMessage);
  }
}

function readFields(bodyText: string, code: string | null, message: string | null): ReportFieldErrors {
  const fields: ReportFieldErrors = {};
  const given = fieldsOf(bodyText);
  for (const [name, sentence] of Object.entries(given)) {
    if (isReportField(name) && typeof sentence === 'string' && sentence) fields[name] = sentence;
  }
  if (Object.keys(fields).length > 0 || code !== 'validation_failed' || !message) return fields;
  for (const part of message.split('; ')) {
    const match = /^(\w+): (.+)$/.exec(part);
    if (match?.[1] && match[2] && isReportField(match[1])) fields[match[1]] = match[2];
  }
  return fields;
}

function fieldsOf(bodyText: string): Record<string, unknown> {
  try {
    const body: unknown = JSON.parse(bodyText);
    if (typeof body !== 'object' || body === null) return {};
    const { fields } = body as Record<string, unknown>;
    return typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
