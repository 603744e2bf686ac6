import type { ServiceContext } from '../../context';
import { publishGenerationChange } from '../../bus/publish';
import { discardUploads } from '../uploads/uploads.service';
import * as repo from './generations.repository';
import { clearExpiredOutput } from './lifecycle.service';
import { namedUploadIds } from './named-uploads';
import { storedKeysOf } from './output-life';

const BATCH = 200;

/** Deletes outputs past their expiry (VIDEO_RETENTION_HOURS after completion; kept ones have none); the record stays, without a video. */
export async function sweepExpiredOutputs(ctx: ServiceContext): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await repo.findExpiredOutputs(ctx.db, ctx.now(), BATCH);
    for (const row of batch) {
      for (const key of [row.outputKey, row.posterKey]) if (key) await ctx.storage.delete(key);
      await clearExpiredOutput(ctx, row);
    }
    removed += batch.length;
    if (batch.length < BATCH) return removed;
  }
}

/**
 * Deletes generation records older than GENERATION_RECORD_RETENTION_DAYS (finished ones: a job
 * still running is left to finish; never a kept video), with any file or input they still hold. Answers how many.
 */
export async function sweepOldRecords(ctx: ServiceContext): Promise<number> {
  const now = ctx.now();
  const before = new Date(now.getTime() - ctx.config.generationRecordRetentionDays * 86_400_000);
  let removed = 0;
  for (;;) {
    const batch = await repo.findOldRecords(ctx.db, before, now, BATCH);
    for (const found of batch) {
      // Announced like a user's own deletion: open tabs drop it, and the lists' ETags move.
      const row = await ctx.db.transaction(async (tx) => {
        const deleted = await repo.deleteById(tx, found.id);
        if (deleted) await publishGenerationChange(tx, deleted.userId, deleted.id);
        return deleted;
      });
      if (!row) continue;
      for (const key of storedKeysOf(row)) await ctx.storage.delete(key);
      await discardUploads(ctx, row.userId, namedUploadIds(row));
      removed += 1;
    }
    if (batch.length < BATCH) return removed;
  }
}
