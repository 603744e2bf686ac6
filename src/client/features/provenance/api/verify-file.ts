import { useMutation } from '@tanstack/react-query';

import { type CredentialsReport, credentialsReportSchema } from '../../../../shared/provenance';
import { throwIfNotOk } from '../../../lib/api-client';

/** POST /api/provenance/verify with the file itself as the body (read by the server, never kept). */
export async function verifyFile(file: File): Promise<CredentialsReport> {
  const response = await fetch('/api/provenance/verify', {
    method: 'POST',
    headers: { 'content-type': file.type || 'application/octet-stream' },
    body: file,
    credentials: 'include',
  });
  await throwIfNotOk(response);
  return credentialsReportSchema.parse(await response.json());
}

export function useVerifyFile() {
  return useMutation({ mutationFn: verifyFile });
}
