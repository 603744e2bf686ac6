import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  DECISION_HOURS,
  type OwnTakedown,
  PERSONAL_REASONS,
  REPORT_CONTACT_REQUIRED_MESSAGE,
  REPORT_REASON_LABELS,
  REPORT_RECEIVED_MESSAGE,
  REPORT_STATEMENT_REQUIRED_CODE,
  REPORT_STATEMENT_REQUIRED_MESSAGE,
  REPORTED_VIDEO_NOT_FOUND_MESSAGE,
  type ReportReceipt,
  type WatchedVideo,
} from '../../../shared/safety';
import type { newReportSchema } from '../../../shared/safety';
import type { z } from 'zod';
import type { ServiceContext } from '../../context';
import type { GenerationRow, SafetyReportRow, UserRow } from '../../db/schema';
import { AppError, badRequest, conflict, notFound, tooManyRequests } from '../../lib/app-error';
import { mediaUrl, verifyMediaUrl, verifyWatchToken } from '../../storage/media-links';
import { hasLiveOutput, keptLinkExpiry } from '../generations/generations.service';
import * as repo from './safety.repository';
import { mailQuietly } from './safety-queue.service';

// Reports of videos (issue 44): from anyone with the link (signed in or not, or by token with
// `reports:write`), limited per address and per account, each with its 48-hour clock.

const HOUR_MS = 3_600_000;

const videoNotFound = () => notFound(REPORTED_VIDEO_NOT_FOUND_MESSAGE, 'video_not_found');

/**
 * The video a reporter names: a watch link or its token, a video file or poster link, or a video's
 * id. Null when none of this installation's live videos is named.
 */
export async function findReportedVideo(ctx: ServiceContext, ref: string): Promise<GenerationRow | null> {
  const text = ref.trim();
  let pathname = text;
  let search = '';
  try {
    const url = new URL(text, 'http://reelsmith.invalid');
    pathname = url.pathname;
    search = url.search;
  } catch {
    return null;
  }
  const now = ctx.now();
  const watch = /^\/watch\/([^/]+)$/.exec(pathname)?.[1] ?? (/^[0-9a-f-]{36}\.\d+\.[\w-]+$/.test(text) ? text : null);
  let id: string | null = null;
  if (watch) id = verifyWatchToken(ctx.secret, decodeURIComponent(watch), now);
  else if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) id = text.toLowerCase();
  else {
    const media = /^\/api\/media\/([^/]+)$/.exec(pathname)?.[1];
    if (!media) return null;
    const query = new URLSearchParams(search);
    try {
      const object = verifyMediaUrl(
        ctx.secret,
        {
          id: media,
          type: query.get('type') ?? undefined,
          exp: query.get('exp') ?? undefined,
          sig: query.get('sig') ?? undefined,
        },
        now,
      );
      const row = await repo.findGenerationByFile(ctx.db, object.key);
      return row && hasLiveOutput(row, now) ? row : null;
    } catch {
      return null;
    }
  }
  if (!id) return null;
  const row = await repo.findGeneration(ctx.db, id);
  return row && hasLiveOutput(row, now) ? row : null;
}

/** The key a reporter's address is counted under: an HMAC, so the table never holds the address. */
const addressKey = (ctx: ServiceContext, ip: string) =>
  createHmac('sha256', ctx.secret).update(`report-address:${ip}`).digest('base64url').slice(0, 32);

/**
 * POST /api/reports: stores a report with its 48-hour clock. A report about a person shown needs the
 * takedown statement (422 statement_required); a signed-out reporter gives an email to hear back.
 * SAFETY_REPORTS_PER_HOUR per address and per account (429 too_many_reports).
 */
export async function submitReport(
  ctx: ServiceContext,
  input: z.output<typeof newReportSchema>,
  reporter: { user: UserRow | null; ip: string; log: FastifyBaseLogger },
): Promise<ReportReceipt> {
  if (PERSONAL_REASONS.includes(input.reason) && !input.statement)
    throw new AppError(422, REPORT_STATEMENT_REQUIRED_CODE, REPORT_STATEMENT_REQUIRED_MESSAGE);
  const contact = input.contact || reporter.user?.email || '';
  if (!contact) throw badRequest(REPORT_CONTACT_REQUIRED_MESSAGE, 'contact_required');
  const video = await findReportedVideo(ctx, input.video);
  if (!video) throw videoNotFound();
  const address = addressKey(ctx, reporter.ip);
  const perHour = ctx.config.moderation.safety.reportsPerHour;
  const now = ctx.now();
  const report = await ctx.db.transaction(async (tx) => {
    // One report at a time per address: a burst cannot all pass the limit at once.
    await repo.lockReporter(tx, address);
    const recent = await repo.recentReports(tx, { address, userId: reporter.user?.id ?? null }, now, HOUR_MS);
    if (recent.count >= perHour) {
      const seconds = Math.max(1, Math.ceil((recent.oldest.getTime() + HOUR_MS - now.getTime()) / 1000));
      throw tooManyRequests(
        `You have sent ${perHour} reports in the last hour, the most this server takes. Please try again in ${Math.ceil(seconds / 60)} minutes.`,
        seconds,
        'too_many_reports',
      );
    }
    return repo.insertReport(tx, {
      kind: 'report',
      generationId: video.id,
      ownerUserId: video.userId,
      reason: input.reason,
      description: input.description,
      reporterContact: contact,
      reporterUserId: reporter.user?.id ?? null,
      reporterAddress: address,
      statement: input.statement,
      video: { prompt: video.prompt, model: video.model, createdAt: video.createdAt.toISOString() },
      createdAt: now,
      dueAt: new Date(now.getTime() + DECISION_HOURS * HOUR_MS),
    });
  });
  if (!(await repo.hasOtherOpenReport(ctx.db, video.id, report.id)))
    await tellAdministrators(ctx, reporter.log, report);
  return { id: report.id, dueAt: report.dueAt.toISOString(), message: REPORT_RECEIVED_MESSAGE };
}

/**
 * The administrators hear of a video's first open report by mail (where mail is set up), with its
 * deadline and where to decide it; further reports of the same video while it is open add no mail,
 * so reports sent from many addresses cannot flood their inboxes.
 */
async function tellAdministrators(ctx: ServiceContext, log: FastifyBaseLogger, report: SafetyReportRow): Promise<void> {
  if (!ctx.config.accounts.mail) return;
  const due = report.dueAt.toUTCString();
  const where = new URL('/admin/safety', ctx.config.publicUrl).href;
  const text =
    `A video was reported (${REPORT_REASON_LABELS[report.reason]}). Decide by ${due}: ${where}` +
    (report.description ? ` The reporter wrote: ${report.description}` : '');
  for (const email of await repo.administratorEmails(ctx.db))
    await mailQuietly(ctx, { log }, email, `A video was reported: decide by ${due}`, text);
}

/** GET /api/watch/:token: a shared video's watch page, while it lives (404 after, or for a forged link). */
export async function watchVideo(ctx: ServiceContext, token: string): Promise<WatchedVideo> {
  const now = ctx.now();
  const id = verifyWatchToken(ctx.secret, token, now);
  const row = id ? await repo.findGeneration(ctx.db, id) : null;
  if (!row || !hasLiveOutput(row, now))
    throw notFound('This video is no longer here: it expired, or was removed.', 'watch_not_found');
  const until = row.kept ? keptLinkExpiry(now) : (row.expiresAt ?? now);
  return {
    id: row.id,
    videoUrl: mediaUrl(ctx.secret, { key: row.outputKey, contentType: 'video/mp4', expiresAt: until }),
    posterUrl: row.posterKey
      ? mediaUrl(ctx.secret, { key: row.posterKey, contentType: 'image/jpeg', expiresAt: until })
      : null,
    duration: Math.round((row.outputDuration ?? row.requestedDuration) * 10) / 10,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.kept ? null : (row.expiresAt?.toISOString() ?? null),
    signedBy: row.credentials?.signedBy ?? null,
  };
}

/** GET /api/safety/takedowns: the signed-in owner's videos that were taken down, with their appeal. */
export async function ownTakedowns(ctx: ServiceContext, userId: string): Promise<OwnTakedown[]> {
  return (await repo.takedownsOf(ctx.db, userId)).map(({ report, appeal }) => ({
    reportId: report.id,
    reason: report.reason,
    prompt: report.video.prompt,
    takenDownAt: (report.decidedAt ?? report.createdAt).toISOString(),
    note: report.decisionNote ?? '',
    appeal: appeal ? { status: appeal.status, createdAt: appeal.createdAt.toISOString() } : null,
  }));
}

/**
 * POST /api/safety/takedowns/:reportId/appeal: the owner asks, once per takedown, for it to be looked
 * at again; the appeal lands in the safety queue with its own 48-hour clock. 404 for another's.
 */
export async function appealTakedown(
  ctx: ServiceContext,
  user: UserRow,
  reportId: string,
  message: string,
): Promise<{ message: string }> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const report = await repo.lockReport(tx, reportId);
    if (!report || report.ownerUserId !== user.id || report.kind !== 'report' || report.status !== 'taken_down')
      throw notFound('There is no takedown of your videos with this id.', 'takedown_not_found');
    if (await repo.findAppealAbout(tx, report.generationId))
      throw conflict('You have appealed this takedown already: an administrator will decide.', 'already_appealed');
    await repo.insertReport(tx, {
      kind: 'appeal',
      generationId: report.generationId,
      ownerUserId: user.id,
      reason: report.reason,
      description: message,
      reporterContact: user.email,
      reporterUserId: user.id,
      video: report.video,
      appealOf: report.id,
      createdAt: now,
      dueAt: new Date(now.getTime() + DECISION_HOURS * HOUR_MS),
    });
  });
  return { message: 'Your appeal was sent. An administrator will look at it within 48 hours and write to you.' };
}
