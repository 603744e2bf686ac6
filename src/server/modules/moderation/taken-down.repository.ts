import type { Executor } from '../../db/client';
import { blockedMediaHashes } from '../../db/schema';

/** The perceptual hashes of every taken-down video's frames and inputs. */
export async function takenDownHashes(tx: Executor): Promise<string[]> {
  const rows = await tx.select({ hash: blockedMediaHashes.hash }).from(blockedMediaHashes);
  return rows.map((row) => row.hash);
}

/** Whether anything was ever taken down (a cheap look before hashing an upload). */
export async function anyTakenDown(tx: Executor): Promise<boolean> {
  const rows = await tx.select({ hash: blockedMediaHashes.hash }).from(blockedMediaHashes).limit(1);
  return rows.length > 0;
}
