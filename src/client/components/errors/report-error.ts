import type { ErrorReport } from '../../../shared/errors';
import { apiRequest } from '../../lib/api-client';

export function buildErrorReport(error: Error, componentStack: string | null, errorId: string): ErrorReport {
  return {
    message: error.message || String(error),
    stack: error.stack ?? null,
    componentStack,
    url: window.location.href,
    userAgent: navigator.userAgent,
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
