import {
  type NewReport,
  newReportSchema,
  PERSONAL_REASONS,
  REPORT_CONTACT_REQUIRED_MESSAGE,
  REPORT_REASONS,
  REPORT_STATEMENT_REQUIRED_MESSAGE,
  REPORTED_VIDEO_NOT_FOUND_MESSAGE,
  type ReportReason,
} from '../../../shared/safety';
import { ApiError, getServerMessage } from '../../lib/api-client';
import { type ReportFieldErrors, ReportError } from './api/report-error';

export const REASON_REQUIRED_MESSAGE = 'Choose what is wrong with the video.';
const SEND_FAILED_MESSAGE = 'The report could not be sent. Please check your connection and try again.';

export const isReportReason = (value: string): value is ReportReason =>
  (REPORT_REASONS as readonly string[]).includes(value);

/** The intimate-image and likeness reasons are takedown requests, which need the reporter's statement. */
export const needsStatement = (reason: ReportReason | '') => reason !== '' && PERSONAL_REASONS.includes(reason);

export interface ReportDraft {
  video: string;
  reason: ReportReason | '';
  description: string;
  contact: string;
  statement: boolean;
}

/**
 * What is wrong with the form before it is sent, by the shared schema and the rules it leaves to
 * the server (an email from someone signed out, the statement for a takedown request), or the body.
 */
export function checkReport(
  draft: ReportDraft,
  signedIn: boolean,
): { body: NewReport; errors: null } | { body: null; errors: ReportFieldErrors } {
  const errors: ReportFieldErrors = {};
  const parsed = newReportSchema.safeParse({ ...draft, contact: signedIn ? '' : draft.contact.trim() });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === 'video' || field === 'description' || field === 'contact') errors[field] ??= issue.message;
    }
  }
  if (draft.reason === '') errors.reason = REASON_REQUIRED_MESSAGE;
  if (!signedIn && !draft.contact.trim()) errors.contact = REPORT_CONTACT_REQUIRED_MESSAGE;
  if (needsStatement(draft.reason) && !draft.statement) errors.statement = REPORT_STATEMENT_REQUIRED_MESSAGE;
  if (!parsed.success || Object.keys(errors).length > 0) return { body: null, errors };
  return { body: { ...parsed.data, statement: needsStatement(draft.reason) && draft.statement }, errors: null };
}

/** A refusal's sentences: at the field they are about, or `form` (above the button) for the rest. */
export function reportErrorsFor(error: unknown): ReportFieldErrors & { form?: string } {
  const message = getServerMessage(error);
  if (error instanceof ReportError && Object.keys(error.fields).length > 0) return error.fields;
  if (error instanceof ApiError) {
    if (error.code === 'statement_required') return { statement: message ?? REPORT_STATEMENT_REQUIRED_MESSAGE };
    if (error.code === 'video_not_found') return { video: message ?? REPORTED_VIDEO_NOT_FOUND_MESSAGE };
    if (error.code === 'contact_required') return { contact: message ?? REPORT_CONTACT_REQUIRED_MESSAGE };
  }
  return { form: message ?? SEND_FAILED_MESSAGE };
}
