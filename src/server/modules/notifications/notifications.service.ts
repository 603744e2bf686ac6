import type { FastifyBaseLogger } from 'fastify';
import {
  type NotificationSettings,
  PRESENCE_INTERVAL_MS,
  type PushMessage,
  type PushSubscriptionBody,
} from '../../../shared/notifications';
import { retentionInWords } from '../../../shared/retention';
import type { ServiceContext } from '../../context';
import { AppError, badRequest } from '../../lib/app-error';
import { escapeHtml } from '../../lib/html';
import { sendMail } from '../../lib/mailer';
import { findUserById } from '../users/users.service';
import * as repo from './notifications.repository';
import { vapidKeys, vapidSubject } from './push-keys';
import { pushEndpointProblem, sendPush } from './web-push';

/** Browsers per account that receive notifications; a new one beyond this replaces the oldest. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;
/** A visible tab says so every minute; it counts as present a little longer, for a late heartbeat. */
const PRESENCE_SECONDS = Math.round((PRESENCE_INTERVAL_MS * 1.5) / 1000);

export async function getSettings(ctx: ServiceContext, userId: string): Promise<NotificationSettings> {
  const [settings, subscriptions, keys] = await Promise.all([
    repo.findSettings(ctx.db, userId),
    repo.countSubscriptions(ctx.db, userId),
    vapidKeys(ctx),
  ]);
  const available = ctx.config.accounts.mail !== undefined;
  return {
    email: { available, enabled: available && (settings?.email ?? false) },
    push: { publicKey: keys.publicKey, subscriptions },
  };
}

export async function setEmailChoice(ctx: ServiceContext, userId: string, enabled: boolean): Promise<void> {
  if (enabled && !ctx.config.accounts.mail) {
    throw new AppError(409, 'mail_unavailable', 'This server does not send e-mail, so it cannot e-mail you.');
  }
  await repo.saveEmailChoice(ctx.db, userId, enabled);
}

/** Keeps a browser's subscription for the user, after checking it names a push service we send to. */
export async function addPushSubscription(
  ctx: ServiceContext,
  userId: string,
  body: PushSubscriptionBody,
): Promise<void> {
  const problem = pushEndpointProblem(body.endpoint, ctx.config.notifications.pushAllowedHosts);
  if (problem) throw badRequest(problem, 'push_endpoint_refused');
  if (
    Buffer.from(body.keys.p256dh, 'base64url').length !== 65 ||
    Buffer.from(body.keys.auth, 'base64url').length !== 16
  ) {
    throw badRequest("The push subscription's keys are not a browser's (a 65-byte key and a 16-byte secret).");
  }
  await ctx.db.transaction(async (tx) => {
    await repo.upsertSubscription(tx, { userId, endpoint: body.endpoint, ...body.keys });
    const all = await repo.listSubscriptions(tx, userId);
    const extra = all.slice(0, Math.max(0, all.length - MAX_PUSH_SUBSCRIPTIONS));
    await repo.deleteSubscriptionsById(
      tx,
      extra.map((s) => s.id),
    );
  });
}

export async function removePushSubscription(ctx: ServiceContext, userId: string, endpoint: string): Promise<void> {
  await repo.deleteSubscription(ctx.db, userId, endpoint);
}

/** A tab of the user's is in front of them (for the next minute and a half), or no longer is. */
export async function savePresence(ctx: ServiceContext, userId: string, visible: boolean): Promise<void> {
  await repo.savePresence(ctx.db, userId, visible ? PRESENCE_SECONDS : 0);
}

export interface FinishedVideo {
  userId: string;
  generationId: string;
  outcome: 'completed' | 'failed';
  /** What the user asked for (the record's prompt), shortened for the message. */
  description: string;
  /** Why it failed (the record's error message). */
  reason?: string | null;
}

const pending = new WeakMap<ServiceContext, Set<Promise<void>>>();

/**
 * Tells the user that a video is ready or failed, by push to each of their browsers and by e-mail
 * when they chose it: unless a tab of theirs is in front of them, where the page shows it already.
 * Runs after the caller's transaction, never fails the caller, and gives up on a push after 10 s.
 */
export function notifyVideoFinished(ctx: ServiceContext, video: FinishedVideo, log: FastifyBaseLogger): void {
  const task = deliver(ctx, video, log).catch((error: unknown) => {
    log.warn({ err: error, generationId: video.generationId }, 'notification failed');
  });
  const tasks = pending.get(ctx) ?? new Set<Promise<void>>();
  pending.set(ctx, tasks);
  tasks.add(task);
  void task.finally(() => tasks.delete(task));
}

/** Waits for notifications still being sent (graceful shutdown, tests). */
export async function settleNotifications(ctx: ServiceContext): Promise<void> {
  await Promise.all([...(pending.get(ctx) ?? [])]);
}

async function deliver(ctx: ServiceContext, video: FinishedVideo, log: FastifyBaseLogger): Promise<void> {
  if (await repo.isPresent(ctx.db, video.userId)) return;
  const message = finishedMessage(video);
  const [subscriptions, settings] = await Promise.all([
    repo.listSubscriptions(ctx.db, video.userId),
    repo.findSettings(ctx.db, video.userId),
  ]);
  const mail = ctx.config.accounts.mail;
  await Promise.all([
    subscriptions.length > 0 ? pushToAll(ctx, subscriptions, message, log) : undefined,
    mail && settings?.email ? emailUser(ctx, mail, video, message) : undefined,
  ]);
}

/** Contact addresses this process has already warned about, once each. */
const warnedSubjects = new Set<string>();

async function pushToAll(
  ctx: ServiceContext,
  subscriptions: Awaited<ReturnType<typeof repo.listSubscriptions>>,
  message: PushMessage,
  log: FastifyBaseLogger,
): Promise<void> {
  const keys = await vapidKeys(ctx);
  const { subject, acceptable } = vapidSubject(ctx.config);
  if (!acceptable && !warnedSubjects.has(subject)) {
    warnedSubjects.add(subject);
    log.warn(
      { subject },
      "Push services such as Apple's refuse this contact address: set OPERATOR_CONTACT (an email address) or VAPID_SUBJECT",
    );
  }
  const results = await Promise.all(
    subscriptions.map(async (s) => ({ id: s.id, ...(await sendPush(s, message, { keys, subject })) })),
  );
  for (const failed of results.filter((r) => r.outcome === 'failed')) {
    log.warn({ status: failed.status }, 'push message not accepted');
  }
  await repo.deleteSubscriptionsById(
    ctx.db,
    results.filter((r) => r.outcome === 'gone').map((r) => r.id),
  );
}

async function emailUser(
  ctx: ServiceContext,
  mail: { smtpUrl: string; from: string },
  video: FinishedVideo,
  message: PushMessage,
): Promise<void> {
  const user = await findUserById(ctx.db, video.userId);
  if (!user) return;
  const link = `${ctx.config.publicUrl}${message.url}`;
  const account = `${ctx.config.publicUrl}/account`;
  const kept =
    video.outcome === 'completed' ? `It is kept for ${retentionInWords(ctx.config.retention.videoHours)}.` : '';
  await sendMail(mail, {
    to: user.email,
    subject: message.title,
    text: `${message.body}\n\n${link}\n${kept ? `${kept}\n` : ''}\nYou asked for these e-mails; turn them off on your account page: ${account}\n`,
    html: `<p>${escapeHtml(message.body)}</p><p><a href="${escapeHtml(link)}">${video.outcome === 'completed' ? 'Watch your video' : 'Open Reelsmith'}</a>${kept ? ` ${kept}` : ''}</p><p>You asked for these e-mails; <a href="${escapeHtml(account)}">turn them off on your account page</a>.</p>`,
  });
}

const DESCRIPTION_LIMIT = 80;

function finishedMessage(video: FinishedVideo): PushMessage {
  const oneLine = video.description.replace(/\s+/g, ' ').trim();
  const short = oneLine.length > DESCRIPTION_LIMIT ? `${oneLine.slice(0, DESCRIPTION_LIMIT - 1)}…` : oneLine;
  const quoted = short ? `“${short}”` : 'Your video';
  return video.outcome === 'completed'
    ? {
        title: 'Your video is ready',
        body: short ? `${quoted} is ready to watch.` : 'Your video is ready to watch.',
        url: `/media?video=${encodeURIComponent(video.generationId)}`,
        tag: `video-${video.generationId}`,
      }
    : {
        title: 'Your video could not be made',
        body: `${short ? quoted : 'Your video'} failed${video.reason ? `: ${video.reason}` : '.'}`,
        url: `/media?video=${encodeURIComponent(video.generationId)}`,
        tag: `video-${video.generationId}`,
      };
}
