import { MAX_CONCURRENT_UPLOADS_PER_USER } from '../../../shared/uploads';
import { tooManyRequests } from '../../lib/app-error';

/**
 * Files each user is sending to this process now. Counted in memory, not in the database: a
 * process that dies frees its slots with it (a `receiving` row of a crashed process would
 * otherwise hold a slot until the sweeper removes it). With several web processes, the cap
 * holds per process.
 */
const receiving = new Map<string, number>();

/** Takes one of the user's upload slots (429 when all are in use); answers the function that gives it back. */
export function takeUploadSlot(userId: string): () => void {
  const used = receiving.get(userId) ?? 0;
  if (used >= MAX_CONCURRENT_UPLOADS_PER_USER) {
    throw tooManyRequests(
      `You are already sending ${MAX_CONCURRENT_UPLOADS_PER_USER} files. Wait for one of them to finish, then try again.`,
      5,
      'too_many_uploads',
    );
  }
  receiving.set(userId, used + 1);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    const left = (receiving.get(userId) ?? 1) - 1;
    if (left > 0) receiving.set(userId, left);
    else receiving.delete(userId);
  };
}
