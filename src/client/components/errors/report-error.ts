import type { ErrorReport } from '../../../shared/errors';
import { toFieldText } from '../../../shared/field-text';
import { apiRequest } from '../../lib/api-client';

/**
 * The report of an error, in the shape the server accepts whatever the error holds: terminal colour
 * codes and other control characters removed, each part clipped so the whole stays under the
 * server's 16 KB limit.
 */
export function buildErrorReport(error: Error, componentStack: string | null, errorId: string): ErrorReport {
  return {
    message: toFieldText(error.message || String(error), 'multi-line', 1000),
    stack: error.stack ? toFieldText(error.stack, 'multi-line', 4000) : null,
    componentStack: componentStack ? toFieldText(componentStack, 'multi-line', 4000) : null,
    url: toFieldText(window.location.href, 'single-line', 1000),
    userAgent: toFieldText(navigator.userAgent, 'single-line', 500),
    timestamp: new Date().toISOString(),
    errorId,
  };
}

/** Sends the report to the server; a failure here must never raise a second error screen. */
export async function reportError(report: ErrorReport): Promise<void> {
  try {
    await apiRequest('POST', '/api/errors/report', report);
  } catch (error) {
    console.warn('Could not report the error to the server', error);
  }
}
