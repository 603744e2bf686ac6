import { and, desc, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type AiResultKind, type AiResultRow, aiResults } from '../../db/schema';

/** Records a result; answers its id (the enhance and analyse answers carry it). */
export async function insertAiResult(
  tx: Executor,
  row: { userId: string; kind: AiResultKind; text: string; fromSuggestion: boolean },
): Promise<string> {
  const [inserted] = await tx.insert(aiResults).values(row).returning({ id: aiResults.id });
  if (!inserted) throw new Error('ai_results insert returned no row');
  return inserted.id;
}

/** The results with these ids, whoever they belong to (the caller checks the owner). */
export function findAiResults(tx: Executor, ids: string[]): Promise<AiResultRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return tx.select().from(aiResults).where(inArray(aiResults.id, ids));
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
