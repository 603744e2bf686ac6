import { apiRequest } from '../../../lib/api-client';

/** POST /api/files/cleanup: deletes the caller's expired uploads. Callers only log a failure. */
export async function cleanupFiles(): Promise<void> {
  await apiRequest('POST', '/api/files/cleanup');
}
