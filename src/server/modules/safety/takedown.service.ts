import { REPORT_REASON_LABELS } from '../../../shared/safety';
import type { ServiceContext } from '../../context';
import type { GenerationRow, SafetyReportRow } from '../../db/schema';
import { publishGenerationChange } from '../../bus/publish';
import { conflict, notFound } from '../../lib/app-error';
import { recordWebhookEvent } from '../outbound-webhooks/webhooks.service';
import { mailQuietly, type SafetyActor } from './safety-queue.service';
import * as repo from './safety.repository';

// The safety module's parts of a takedown (the workflow src/server/workflows/take-down.ts runs them
// around the deletion of the videos).

/** An open report that can be taken down: 404 when unknown, 409 when decided or an appeal. */
export async function reportToTakeDown(ctx: ServiceContext, id: string): Promise<SafetyReportRow> {
  const report = await repo.findReport(ctx.db, id);
  if (!report) throw notFound('This report was not found.', 'report_not_found');
  if (report.status !== 'open') throw conflict('This report was decided already.', 'report_decided');
  if (report.kind === 'appeal')
    throw conflict('An appeal is about a video taken down already: dismiss it or grant it.', 'not_a_report');
  return report;
}

/** A video and every video made from it (extends, remixes, continuations), parents first. */
export function videoFamily(ctx: ServiceContext, generationId: string): Promise<GenerationRow[]> {
  return repo.videoFamily(ctx.db, generationId);
}

/**
 * Closes a takedown once its videos are deleted, in one transaction: every open report about them is
 * decided as taken down, the perceptual hashes are kept, the audit row written, and the owner's
 * `video.taken_down` webhook queued. 409 when another administrator decided it meanwhile.
 */
export async function closeTakedown(
  ctx: ServiceContext,
  actor: SafetyActor,
  report: SafetyReportRow,
  done: { removed: string[]; hashes: string[]; note: string },
): Promise<SafetyReportRow[]> {
  const at = ctx.now();
  const { removed, hashes, note } = done;
  return ctx.db.transaction(async (tx) => {
    const locked = await repo.lockReport(tx, report.id);
    if (locked?.status !== 'open') throw conflict('This report was decided already.', 'report_decided');
    const decided = await repo.decideReportsAbout(tx, [report.generationId, ...removed], {
      status: 'taken_down',
      by: actor.label,
      note,
    });
    await repo.insertHashes(tx, hashes, report.id);
    await repo.insertAudit(tx, {
      actor: actor.label,
      actorUserId: actor.userId,
      action: 'report_take_down',
      targetUserId: report.ownerUserId,
      before: { reportId: report.id, status: report.status, reason: report.reason, video: report.video },
      after: { reportId: report.id, status: 'taken_down', removed, hashes: hashes.length, note },
    });
    if (report.ownerUserId) {
      await recordWebhookEvent(tx, {
        userId: report.ownerUserId,
        type: 'video.taken_down',
        at,
        data: () => ({ id: report.generationId, removed, reason: report.reason, note, takenDownAt: at.toISOString() }),
      });
      for (const id of removed) await publishGenerationChange(tx, report.ownerUserId, id);
    }
    return decided;
  });
}

/** Tells the reporters and the owner of a takedown by mail, when mail is configured. */
export async function tellOfTakedown(
  ctx: ServiceContext,
  actor: SafetyActor,
  report: SafetyReportRow,
  decided: SafetyReportRow[],
  note: string,
): Promise<void> {
  const contacts = new Set(decided.flatMap((row) => (row.reporterContact ? [row.reporterContact] : [])));
  for (const contact of contacts)
    await mailQuietly(
      ctx,
      actor,
      contact,
      'The video you reported was taken down',
      `Thank you for your report. The video you reported was taken down and its links no longer work.${note ? ` ${note}` : ''}`,
    );
  const owner = report.ownerUserId
    ? (await repo.ownerFacts(ctx.db, [report.ownerUserId])).get(report.ownerUserId)
    : null;
  if (owner)
    await mailQuietly(
      ctx,
      actor,
      owner.email,
      'A video of yours was taken down',
      `A video of yours ("${report.video.prompt.slice(0, 80)}") was taken down after a report: ${REPORT_REASON_LABELS[report.reason]}.${note ? ` ${note}` : ''} You can appeal once, from your dashboard.`,
    );
}

/** Remembers the perceptual hashes of a held video an administrator rejected (no report behind it). */
export async function rememberTakenDown(ctx: ServiceContext, hashes: string[]): Promise<void> {
  await repo.insertHashes(ctx.db, hashes, null);
}
