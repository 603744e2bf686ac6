import {
  DECISION_HOURS,
  type OwnerAction,
  type SafetyItem,
  type SafetyOverview,
  type SafetyOwner,
} from '../../../shared/safety';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceContext } from '../../context';
import type { GenerationRow, SafetyReportRow } from '../../db/schema';
import { conflict, notFound } from '../../lib/app-error';
import { sendMail } from '../../lib/mailer';
import { mediaUrl } from '../../storage/media-links';
import * as repo from './safety.repository';

// The operator's safety queue (issue 44): open reports, owners' appeals and jobs screening held,
// oldest first with their 48-hour clocks; and the decisions on reports and on owners, each audited.

const HOUR_MS = 3_600_000;
const QUEUE_LIMIT = 200;
/** How long the queue's links to a reported video work. */
const REVIEW_LINK_MS = HOUR_MS;

/** Who decides (an administrator, named in the audit and the report's decision), and where mail failures are logged. */
export interface SafetyActor {
  label: string;
  userId: string | null;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

/** The queue's figures, also read by /metrics. */
export async function safetyFigures(ctx: ServiceContext): Promise<SafetyOverview['stats']> {
  const [open, byReason, decisions] = await Promise.all([
    repo.countOpenItems(ctx.db),
    repo.reportsByReason(ctx.db),
    repo.decisionFigures(ctx.db),
  ]);
  const medianDecisionHours = decisions.medianHours === null ? null : Math.round(decisions.medianHours * 10) / 10;
  return { open, byReason, decided: decisions.decided, medianDecisionHours };
}

function presentOwner(facts: repo.OwnerFacts | undefined): SafetyOwner | null {
  if (!facts) return null;
  const { suspendedAt, ...rest } = facts;
  return { ...rest, suspended: suspendedAt !== null };
}

function videoLinks(ctx: ServiceContext, row: GenerationRow | undefined, now: Date) {
  const expiresAt = new Date(now.getTime() + REVIEW_LINK_MS);
  const link = (key: string | null | undefined, contentType: string) =>
    key ? mediaUrl(ctx.secret, { key, contentType, expiresAt }) : null;
  return { videoUrl: link(row?.outputKey, 'video/mp4'), posterUrl: link(row?.posterKey, 'image/jpeg') };
}

/** GET /api/admin/safety: the open items, the nearest deadline first, and the figures. */
export async function safetyOverview(ctx: ServiceContext): Promise<SafetyOverview> {
  const now = ctx.now();
  const [reports, held, stats] = await Promise.all([
    repo.openReports(ctx.db, QUEUE_LIMIT),
    repo.heldGenerations(ctx.db, QUEUE_LIMIT),
    safetyFigures(ctx),
  ]);
  const videos = new Map(
    (await repo.generationsByIds(ctx.db, [...new Set(reports.map((report) => report.generationId))])).map((row) => [
      row.id,
      row,
    ]),
  );
  const ownerIds = [
    ...new Set([
      ...reports.flatMap((report) => (report.ownerUserId ? [report.ownerUserId] : [])),
      ...held.map((row) => row.userId),
    ]),
  ];
  const owners = await repo.ownerFacts(ctx.db, ownerIds);
  const reportItems = reports.map((report): SafetyItem => {
    const row = videos.get(report.generationId);
    return {
      id: report.id,
      kind: report.kind,
      reason: report.reason,
      findings: [],
      stage: null,
      description: report.description,
      reporterContact: report.reporterContact,
      createdAt: report.createdAt.toISOString(),
      dueAt: report.dueAt.toISOString(),
      video: {
        id: report.generationId,
        prompt: report.video.prompt,
        model: report.video.model,
        createdAt: report.video.createdAt,
        ...videoLinks(ctx, row, now),
      },
      owner: presentOwner(report.ownerUserId ? owners.get(report.ownerUserId) : undefined),
    };
  });
  const heldItems = held.flatMap((row): SafetyItem[] => {
    const hold = row.heldForReview;
    if (!hold) return [];
    const heldAt = new Date(hold.heldAt);
    return [
      {
        id: row.id,
        kind: 'flag',
        reason: null,
        findings: hold.findings,
        stage: hold.stage ?? 'description',
        description: '',
        reporterContact: null,
        createdAt: heldAt.toISOString(),
        dueAt: new Date(heldAt.getTime() + DECISION_HOURS * HOUR_MS).toISOString(),
        video: {
          id: row.id,
          prompt: row.prompt,
          model: row.model,
          createdAt: row.createdAt.toISOString(),
          ...(hold.stage === 'output' ? videoLinks(ctx, row, now) : { videoUrl: null, posterUrl: null }),
        },
        owner: presentOwner(owners.get(row.userId)),
      },
    ];
  });
  const items = [...reportItems, ...heldItems].sort((a, b) => a.dueAt.localeCompare(b.dueAt));
  return { items, stats };
}

async function requireOpen(ctx: ServiceContext, id: string): Promise<SafetyReportRow> {
  const report = await repo.findReport(ctx.db, id);
  if (!report) throw notFound('This report was not found.', 'report_not_found');
  if (report.status !== 'open') throw conflict('This report was decided already.', 'report_decided');
  return report;
}

/**
 * Dismisses a report (the video stays) or an appeal (the takedown stands), with its audit row; the
 * reporter (or the appealing owner) hears of it by mail when mail is configured.
 */
export async function dismissReport(
  ctx: ServiceContext,
  actor: SafetyActor,
  id: string,
  note: string,
): Promise<{ message: string }> {
  const report = await requireOpen(ctx, id);
  const decided = await ctx.db.transaction(async (tx) => {
    const row = await repo.decideReport(tx, id, { status: 'dismissed', by: actor.label, note });
    if (!row) throw conflict('This report was decided already.', 'report_decided');
    await repo.insertAudit(tx, {
      actor: actor.label,
      actorUserId: actor.userId,
      action: report.kind === 'appeal' ? 'appeal_dismiss' : 'report_dismiss',
      targetUserId: report.ownerUserId,
      before: { reportId: report.id, status: report.status, reason: report.reason },
      after: { reportId: report.id, status: row.status, note, generationId: report.generationId },
    });
    return row;
  });
  const words =
    decided.kind === 'appeal'
      ? `Your appeal was looked at, and the takedown stands.${note ? ` ${note}` : ''}`
      : `Thank you for your report. We looked at the video and it stays up: it does not break this server's content policy.${note ? ` ${note}` : ''}`;
  await mailQuietly(ctx, actor, decided.reporterContact, 'Your report was decided', words);
  return { message: decided.kind === 'appeal' ? 'The appeal was dismissed: the takedown stands.' : 'Dismissed.' };
}

/**
 * Grants an appeal: the takedown's strike is taken back and, below the suspension policy, the account
 * is let in again (the removed files cannot come back). Audited; the owner hears of it by mail.
 */
export async function grantAppeal(
  ctx: ServiceContext,
  actor: SafetyActor,
  id: string,
  note: string,
): Promise<{ message: string }> {
  const appeal = await requireOpen(ctx, id);
  if (appeal.kind !== 'appeal') throw conflict('Only an appeal can be granted.', 'not_an_appeal');
  await ctx.db.transaction(async (tx) => {
    const row = await repo.decideReport(tx, id, { status: 'dismissed', by: actor.label, note: `granted: ${note}` });
    if (!row) throw conflict('This report was decided already.', 'report_decided');
    if (appeal.ownerUserId) {
      await repo.removeStrike(tx, appeal.ownerUserId);
      await repo.setSuspended(tx, appeal.ownerUserId, false);
    }
    await repo.insertAudit(tx, {
      actor: actor.label,
      actorUserId: actor.userId,
      action: 'appeal_grant',
      targetUserId: appeal.ownerUserId,
      before: { reportId: appeal.id, status: appeal.status },
      after: { reportId: appeal.id, granted: true, note },
    });
  });
  await mailQuietly(
    ctx,
    actor,
    appeal.reporterContact,
    'Your appeal was granted',
    `Your appeal was granted: the strike on your account was taken back.${note ? ` ${note}` : ''}`,
  );
  return { message: 'Granted: the strike was taken back and the account can sign in.' };
}

/**
 * Warns, suspends or lets in again a video's owner, audited. A warning adds a strike; at
 * SAFETY_STRIKES_TO_SUSPEND strikes the account is suspended too. A suspended account's sessions end
 * at once; it cannot sign in, use its tokens or make videos. An administrator cannot be suspended.
 */
export async function actOnOwner(
  ctx: ServiceContext,
  actor: SafetyActor,
  userId: string,
  action: OwnerAction,
): Promise<{ message: string }> {
  const policy = ctx.config.moderation.safety.strikesToSuspend;
  const outcome = await ctx.db.transaction(async (tx) => {
    const before = await repo.ownerFacts(tx, [userId]);
    const facts = before.get(userId);
    if (!facts) throw notFound('This user was not found.', 'user_not_found');
    let strikes = facts.strikes;
    let suspend = action === 'suspend';
    if (action === 'warn') {
      strikes = (await repo.addStrike(tx, userId))?.strikes ?? strikes + 1;
      suspend = policy > 0 && strikes >= policy;
    }
    if (suspend || action === 'unsuspend') {
      const changed = await repo.setSuspended(tx, userId, suspend);
      if (changed?.isAdmin && suspend)
        throw conflict('An administrator cannot be suspended: remove their administrator rights first.', 'admin');
      if (suspend) await repo.endSessions(tx, userId);
    }
    await repo.insertAudit(tx, {
      actor: actor.label,
      actorUserId: actor.userId,
      action: `owner_${action}`,
      targetUserId: userId,
      targetEmail: facts.email,
      before: { strikes: facts.strikes, suspended: facts.suspendedAt !== null },
      after: { strikes, suspended: suspend || (action !== 'unsuspend' && facts.suspendedAt !== null) },
    });
    return { email: facts.email, strikes, suspended: suspend };
  });
  if (action === 'warn')
    await mailQuietly(
      ctx,
      actor,
      outcome.email,
      'A warning about your videos',
      outcome.suspended
        ? `A video of yours broke this server's content policy. This is strike ${outcome.strikes}, so your account is suspended.`
        : `A video of yours broke this server's content policy. This is a warning (strike ${outcome.strikes}${policy > 0 ? ` of ${policy}` : ''}); at ${policy} strikes the account is suspended.`,
    );
  if (action === 'warn')
    return {
      message: outcome.suspended
        ? `Warned: strike ${outcome.strikes}, so the account is suspended.`
        : `Warned: strike ${outcome.strikes}.`,
    };
  return {
    message:
      action === 'suspend' ? 'Suspended: the account is signed out everywhere.' : 'The account can sign in again.',
  };
}

/** Sends one mail when mail is configured; a failure is logged, never the caller's. */
export async function mailQuietly(
  ctx: ServiceContext,
  actor: Pick<SafetyActor, 'log'>,
  to: string | null,
  subject: string,
  text: string,
): Promise<void> {
  const mail = ctx.config.accounts.mail;
  if (!mail || !to) return;
  const html = `<p>${text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`;
  await sendMail(mail, { to, subject, text, html }).catch((error: unknown) => {
    actor.log.warn({ err: error }, 'safety mail failed');
  });
}

/** Deletes decided reports older than SAFETY_RECORDS_DAYS (the retention sweeper); answers how many. */
export function pruneDecidedReports(ctx: ServiceContext): Promise<number> {
  const days = ctx.config.moderation.safety.recordsDays;
  return repo.deleteDecidedBefore(ctx.db, new Date(ctx.now().getTime() - days * 24 * HOUR_MS));
}
