import type { Executor } from '../../db/client';
import { errorReports } from '../../db/schema';

export type NewErrorReport = typeof errorReports.$inferInsert;

export async function insertErrorReport(tx: Executor, data: NewErrorReport): Promise<void> {
  await tx.insert(errorReports).values(data);
}
