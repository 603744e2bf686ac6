import { useMutation } from '@tanstack/react-query';

import { type NewReport, type ReportReceipt, reportReceiptSchema } from '../../../../shared/safety';
import { ReportError } from './report-error';

/**
 * POST /api/reports: anyone, signed in or not (a signed-in reporter's cookie goes with it, so the
 * account's email is used). A refusal throws a ReportError with the sentences per field.
 */
export async function submitReport(body: NewReport): Promise<ReportReceipt> {
  const response = await fetch('/api/reports', {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    const bodyText = await response.text().catch(() => '');
    throw new ReportError(response.status, response.statusText, bodyText);
  }
  return reportReceiptSchema.parse(await response.json());
}

export function useSubmitReport() {
  return useMutation({ mutationFn: submitReport });
}
