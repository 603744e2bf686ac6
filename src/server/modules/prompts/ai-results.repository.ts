import { and, desc, eq, gt, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type AiResultKind, type AiResultRow, aiResults } from '../../db/schema';

export async function insertAiResult(
  tx: Executor,
  row: { userId: string; kind: AiResultKind; text: string; fromSuggestion: boolean },
): Promise<void> {
  await tx.insert(aiResults).values(row);
}

/** The user's latest results made since `since`, newest first. */
export function recentAiResults(tx: Executor, userId: string, since: Date, limit: number): Promise<AiResultRow[]> {
  return tx
    .select()
    .from(aiResults)
    .where(and(eq(aiResults.userId, userId), gt(aiResults.createdAt, since)))
    .orderBy(desc(aiResults.createdAt))
    .limit(limit);
}

/** Deletes results made before `before` (they can no longer be used); answers how many. */
export async function deleteAiResultsBefore(tx: Executor, before: Date): Promise<number> {
  const rows = await tx.delete(aiResults).where(lt(aiResults.createdAt, before)).returning({ id: aiResults.id });
  return rows.length;
}
