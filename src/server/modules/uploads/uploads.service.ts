import { countFaces, screenUploadedPicture, type UploadScreening } from '../moderation/moderation.service';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { finished, type Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { expiryFrom } from '../../../shared/retention';
import {
  MAX_PENDING_UPLOADS_PER_USER,
  MAX_UPLOAD_BYTES,
  type UploadComplete,
  type UploadKind,
  type UploadTarget,
} from '../../../shared/uploads';
import type { ServiceContext } from '../../context';
import type { UploadRow } from '../../db/schema';
import { AppError, badRequest, forbidden, tooManyRequests } from '../../lib/app-error';
import { isLocalStorage } from '../../storage/local-storage';
import { checkStoredMedia } from './media-check';
import { sniff, tooLarge, UploadGuard } from './upload-guard';
import { watchUploadRate } from './upload-rate';
import { signedUploadPath, UPLOAD_URL_TTL_SECONDS } from './upload-signature';
import { takeUploadSlot } from './upload-slots';
import * as repo from './uploads.repository';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const OBJECT_PATH = new RegExp(`^/objects/uploads/(${UUID})/(${UUID})$`);
const UPLOAD_URL_PATH = new RegExp(`^/api/uploads/(${UUID})$`);

const objectKeyOf = (userId: string, id: string) => `uploads/${userId}/${id}`;
export const objectPathOf = (userId: string, id: string) => `/objects/${objectKeyOf(userId, id)}`;
/** Every object of one user lives under this prefix. */
export const userUploadsPrefix = (userId: string) => `uploads/${userId}/`;

const LINK_TTL_MS = UPLOAD_URL_TTL_SECONDS * 1000;
/** Time the FFmpeg check may add to an upload after its last byte (its own limits are about a minute). */
const CHECK_MARGIN_MS = 5 * 60_000;

/**
 * Reserves an upload in the caller's own namespace (the server picks the key) and answers where
 * to send the file: our signed URL on local storage, a presigned POST on S3. A user holds at most
 * MAX_PENDING_UPLOADS_PER_USER unused links (429 with Retry-After beyond: when the oldest expires).
 */
export async function createUploadTarget(ctx: ServiceContext, userId: string): Promise<UploadTarget> {
  const now = ctx.now();
  const row = await reserveUpload(ctx, userId, now);
  const key = row.objectKey;
  const objectPath = objectPathOf(userId, row.id);
  const direct = await ctx.storage.createDirectUpload(key, {
    maxBytes: MAX_UPLOAD_BYTES,
    expiresInSeconds: UPLOAD_URL_TTL_SECONDS,
  });
  if (direct)
    return { uploadURL: direct.url, objectPath, method: direct.method, fields: direct.fields, headers: direct.headers };
  return { uploadURL: signedUploadPath(ctx.secret, row.id, now), objectPath, method: 'PUT', fields: {}, headers: {} };
}

/**
 * An upload in one request (programs with an access token: `PUT /api/uploads` with the file as
 * the body): reserves it as createUploadTarget does, under the same limits, and receives the body
 * through this server whatever the storage (S3 too).
 */
export async function uploadInOneRequest(
  ctx: ServiceContext,
  userId: string,
  body: Readable,
  signal?: AbortSignal,
): Promise<UploadComplete> {
  const row = await reserveUpload(ctx, userId, ctx.now());
  return receiveUpload(ctx, row.id, body, signal);
}

async function reserveUpload(ctx: ServiceContext, userId: string, now: Date) {
  const id = randomUUID();
  const key = objectKeyOf(userId, id);
  return ctx.db.transaction(async (tx) => {
    await repo.lockUserReservations(tx, userId);
    const live = await repo.countPendingSince(tx, userId, new Date(now.getTime() - LINK_TTL_MS));
    if (live.count >= MAX_PENDING_UPLOADS_PER_USER) {
      const freedAt = (live.oldest?.getTime() ?? now.getTime()) + LINK_TTL_MS;
      throw tooManyRequests(
        `You have ${MAX_PENDING_UPLOADS_PER_USER} uploads waiting for their files. Send or cancel some, or wait a few minutes, then try again.`,
        (freedAt - now.getTime()) / 1000,
        'too_many_pending_uploads',
      );
    }
    return repo.insertUpload(tx, {
      id,
      userId,
      objectKey: key,
      createdAt: now,
      expiresAt: expiryFrom(now, ctx.config.retention.videoHours),
    });
  });
}

const linkUsed = () => forbidden('This upload link has already been used.', 'upload_link_used');

/**
 * Feeds the body into the guard without ever destroying the body: when the guard refuses (413,
 * 415, too slow), the request stays readable so that the answer still reaches the client, and the
 * route closes the connection after it.
 */
function feed(body: Readable, guard: UploadGuard, signal: AbortSignal | undefined): void {
  // Until storage.put reads the guard, a refusal waits in guard.errored for it to find.
  guard.on('error', () => undefined);
  body.pipe(guard);
  // finished() also reports a body that failed or closed early before this point.
  finished(body, { writable: false }, (error) => {
    if (error) guard.destroy(error);
  });
  const onAbort = () =>
    guard.destroy(signal?.reason instanceof Error ? signal.reason : new Error('the upload was stopped'));
  signal?.addEventListener('abort', onAbort, { once: true });
}

/**
 * Streams one file into storage through the size and type guard, then checks a video or audio
 * file with FFmpeg (checkStoredMedia). The link works once: a second use is 403, and a refused
 * file leaves nothing behind. A user sends at most MAX_CONCURRENT_UPLOADS_PER_USER files at once
 * (429, the link stays usable); `signal` stops a transfer that is too slow.
 */
export async function receiveUpload(
  ctx: ServiceContext,
  id: string,
  body: Readable,
  signal?: AbortSignal,
): Promise<UploadComplete> {
  const pending = await repo.findPendingUpload(ctx.db, id);
  if (!pending) throw linkUsed();
  const giveBackSlot = takeUploadSlot(pending.userId);
  try {
    const row = await repo.claimPendingUpload(ctx.db, id);
    if (!row) throw linkUsed();
    return await receiveClaimed(ctx, row, body, signal);
  } finally {
    giveBackSlot();
  }
}

async function receiveClaimed(
  ctx: ServiceContext,
  row: { id: string; userId: string; objectKey: string },
  body: Readable,
  signal: AbortSignal | undefined,
): Promise<UploadComplete> {
  const guard = new UploadGuard();
  feed(body, guard, signal);
  try {
    const { size } = await ctx.storage.put(row.objectKey, guard, 'application/octet-stream');
    const sniffed = guard.detected;
    if (!sniffed) throw new Error('upload guard let a file through without a type');
    const checked = await checkStoredMedia(ctx, row.objectKey, sniffed);
    const { faces, flagged } = await screeningOf(ctx, row.objectKey, checked);
    const completed = await repo.completeUpload(ctx.db, row.id, {
      kind: checked.kind,
      contentType: checked.mime,
      sizeBytes: size,
      completedAt: ctx.now(),
      faces,
      flagged,
    });
    if (!completed) throw linkUsed();
    return {
      objectPath: objectPathOf(row.userId, row.id),
      kind: checked.kind,
      contentType: checked.mime,
      size,
      ...(checked.kind === 'image' ? { showsPeople: faces !== 0 } : {}),
      ...(checked.kind === 'video' ? { showsPeople: (faces ?? 0) > 0 } : {}),
    };
  } catch (error) {
    await ctx.storage.delete(row.objectKey).catch(() => undefined);
    await repo.deleteUpload(ctx.db, row.id);
    throw error;
  }
}

/** A checked upload's screening: pictures are screened here, videos were as they were checked, sound is not. */
async function screeningOf(
  ctx: ServiceContext,
  objectKey: string,
  checked: { kind: UploadKind; screening?: UploadScreening },
): Promise<UploadScreening> {
  if (checked.kind === 'image') return screenUploadedPicture(ctx, objectKey);
  return checked.screening ?? { faces: null, flagged: null };
}

export interface ResolvedUpload {
  id: string;
  objectKey: string;
  kind: UploadKind;
  contentType: string;
  sizeBytes: number;
  /** Inputs are deleted at this time (24 hours after the upload). */
  expiresAt: Date;
  /** Faces found in an image (null: not looked at yet, or the detector could not run). */
  faces: number | null;
  /** What screening flagged for review (null: nothing). */
  flagged: UploadScreening['flagged'];
}

function parseReference(ref: string): { userId?: string; id: string } | null {
  let pathname = ref.trim().split('?')[0] ?? '';
  if (/^https?:\/\//.test(pathname)) {
    try {
      pathname = new URL(pathname).pathname;
    } catch {
      return null;
    }
  }
  const byPath = OBJECT_PATH.exec(pathname);
  if (byPath) return { userId: byPath[1], id: byPath[2] ?? '' };
  const byUrl = UPLOAD_URL_PATH.exec(pathname);
  return byUrl ? { id: byUrl[1] ?? '' } : null;
}

/**
 * Resolves an upload named by its objectPath or by its upload URL without the query string to a
 * completed upload of this user; anything else is a 400. Direct (S3) uploads are checked here,
 * the first time they are named: size and content, as our own upload URL checks them.
 */
export async function resolveUploadRef(ctx: ServiceContext, userId: string, ref: string): Promise<ResolvedUpload> {
  const [upload] = await resolveUploadRefs(ctx, userId, [ref]);
  if (!upload) throw notYourUpload();
  return upload;
}

const notYourUpload = () =>
  badRequest('That file is not one of your uploads, or its upload did not finish.', 'invalid_upload');

/**
 * `resolveUploadRef` for several references at once, read in one query; the answers are in the
 * references' order. The first that is not a finished upload of this user refuses them all.
 */
export async function resolveUploadRefs(
  ctx: ServiceContext,
  userId: string,
  refs: readonly string[],
): Promise<ResolvedUpload[]> {
  if (refs.length === 0) return [];
  const ids = refs.map((ref) => {
    const parsed = parseReference(ref);
    if (!parsed || (parsed.userId && parsed.userId !== userId)) throw notYourUpload();
    return parsed.id;
  });
  const rows = new Map((await repo.findUserUploads(ctx.db, userId, ids)).map((row) => [row.id, row]));
  const resolved: ResolvedUpload[] = [];
  for (const id of ids) {
    const row = rows.get(id);
    if (!row || row.expiresAt < ctx.now()) throw notYourUpload();
    resolved.push(await finishedUpload(ctx, row));
  }
  return resolved;
}

/** A found upload as a finished one: as stored, or checked now when it went straight to S3. */
async function finishedUpload(ctx: ServiceContext, row: UploadRow): Promise<ResolvedUpload> {
  if (row.status === 'completed' && row.kind && row.contentType && row.sizeBytes !== null) {
    return {
      id: row.id,
      objectKey: row.objectKey,
      kind: row.kind,
      contentType: row.contentType,
      sizeBytes: row.sizeBytes,
      expiresAt: row.expiresAt,
      faces: row.faces,
      flagged: row.flagged,
    };
  }
  if (row.status !== 'pending' || ctx.storage.kind !== 's3') throw notYourUpload();
  const stat = await ctx.storage.stat(row.objectKey);
  if (!stat || stat.size === 0 || stat.size > MAX_UPLOAD_BYTES) {
    if (stat) await ctx.storage.delete(row.objectKey);
    throw notYourUpload();
  }
  const head = await buffer(await ctx.storage.read(row.objectKey, { start: 0, end: Math.min(stat.size, 4100) - 1 }));
  const refuse = async (error: AppError) => {
    await ctx.storage.delete(row.objectKey);
    await repo.deleteUpload(ctx.db, row.id);
    return error;
  };
  const sniffed = await sniff(head);
  if (!sniffed) throw await refuse(notYourUpload());
  const type = await checkStoredMedia(ctx, row.objectKey, sniffed).catch(async (error: unknown) => {
    throw error instanceof AppError ? await refuse(error) : error;
  });
  const { faces, flagged } = await screeningOf(ctx, row.objectKey, type).catch(async (error: unknown) => {
    throw error instanceof AppError ? await refuse(error) : error;
  });
  await repo.completeUpload(ctx.db, row.id, {
    kind: type.kind,
    contentType: type.mime,
    sizeBytes: stat.size,
    completedAt: ctx.now(),
    faces,
    flagged,
  });
  return {
    id: row.id,
    objectKey: row.objectKey,
    kind: type.kind,
    contentType: type.mime,
    sizeBytes: stat.size,
    expiresAt: row.expiresAt,
    faces,
    flagged,
  };
}

/** Deletes expired uploads (all users', or one user's) and their files; files already gone are fine. */
export function sweepExpiredUploads(ctx: ServiceContext, userId?: string): Promise<number> {
  return deleteInBatches(ctx, (limit) => repo.findExpired(ctx.db, ctx.now(), userId, limit));
}

/** Deletes the uploads `findBatch` names, and their files, 200 at a time until none is left; answers how many. */
async function deleteInBatches(
  ctx: ServiceContext,
  findBatch: (limit: number) => Promise<{ id: string; objectKey: string }[]>,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await findBatch(200);
    for (const row of batch) {
      await ctx.storage.delete(row.objectKey);
      await repo.deleteUpload(ctx.db, row.id);
    }
    removed += batch.length;
    if (batch.length < 200) return removed;
  }
}

/**
 * Uploads abandoned mid-transfer (the process receiving them died): rows still `receiving` long
 * after any upload could have ended (its link lasts 15 minutes, the request at most
 * HTTP_REQUEST_TIMEOUT_SECONDS, the check a minute or two), with whatever file they left, and the
 * partial files local storage was writing for them. Answers how many of each were removed.
 */
export async function sweepAbandonedUploads(ctx: ServiceContext): Promise<{ rows: number; partialFiles: number }> {
  const longestUploadMs = ctx.config.http.requestTimeoutMs + CHECK_MARGIN_MS;
  const before = new Date(ctx.now().getTime() - LINK_TTL_MS - longestUploadMs);
  const rows = await deleteInBatches(ctx, (limit) => repo.findStaleReceiving(ctx.db, before, limit));
  // Files have the real clock's times, not the service clock's.
  const partialFiles = isLocalStorage(ctx.storage) ? await ctx.storage.removeStalePartials(longestUploadMs) : 0;
  return { rows, partialFiles };
}

/** Deletes every stored file of a user (their account is being deleted); absent files are fine. */
export async function deleteUserFiles(ctx: ServiceContext, userId: string): Promise<void> {
  await ctx.storage.deletePrefix(userUploadsPrefix(userId));
}

/** Deletes some of a user's uploads and their files (the inputs of a deleted generation). */
export async function discardUploads(ctx: ServiceContext, userId: string, ids: string[]): Promise<void> {
  for (const id of ids) {
    const row = await repo.findUserUpload(ctx.db, userId, id);
    if (!row) continue;
    await ctx.storage.delete(row.objectKey);
    await repo.deleteUpload(ctx.db, row.id);
  }
}

/**
 * Stores an image the server made for a user (a video’s last frame, for Continue; a copy of a character’s picture) as one of their
 * completed uploads, with the usual 24 hours; answers it as an upload reference for a generation.
 */
export async function storeServerImage(
  ctx: ServiceContext,
  userId: string,
  file: Readable,
  contentType: string,
  /** The faces found in it: 0 for a frame of a video made here (its people were consented to or made up when it was made). */
  faces: number | null = 0,
): Promise<UploadComplete> {
  const now = ctx.now();
  const id = randomUUID();
  const key = objectKeyOf(userId, id);
  const { size } = await ctx.storage.put(key, file, contentType);
  try {
    await repo.insertUpload(ctx.db, {
      id,
      userId,
      objectKey: key,
      status: 'completed',
      kind: 'image',
      contentType,
      sizeBytes: size,
      createdAt: now,
      completedAt: now,
      expiresAt: expiryFrom(now, ctx.config.retention.videoHours),
      faces,
    });
  } catch (error) {
    await ctx.storage.delete(key).catch(() => undefined);
    throw error;
  }
  return { objectPath: objectPathOf(userId, id), kind: 'image', contentType, size };
}

/**
 * Streams an untrusted request body into `file` under an upload's limits (the 50 MB cap, declared or
 * counted; a trickling client cut off; the type read from the bytes), for a file that is checked and
 * not kept (POST /api/provenance/verify). Answers the detected MIME type.
 */
export async function receiveCheckedFile(request: IncomingMessage, file: string): Promise<string> {
  if (Number(request.headers['content-length'] ?? 0) > MAX_UPLOAD_BYTES) throw tooLarge();
  const rate = watchUploadRate(request);
  try {
    const guard = new UploadGuard();
    await pipeline(request, guard, createWriteStream(file), { signal: rate.signal });
    return guard.detected?.mime ?? '';
  } finally {
    rate.stop();
  }
}

/**
 * The uploads among `uploads` that show a person: their faces as found when they completed (images,
 * and frames of videos), or, for an image from before faces were counted, looked for now. An image
 * the detector cannot read counts.
 */
export async function uploadsShowingPeople(ctx: ServiceContext, uploads: readonly ResolvedUpload[]): Promise<string[]> {
  const people: string[] = [];
  for (const upload of uploads) {
    // A video whose frames showed a face needs consent; one from before faces were counted is not looked at again.
    if (upload.kind === 'video' && (upload.faces ?? 0) > 0) people.push(upload.id);
    if (upload.kind !== 'image') continue;
    let faces = upload.faces;
    if (faces === null) {
      faces = await countFaces(ctx, upload.objectKey);
      if (faces !== null) await repo.setFaces(ctx.db, upload.id, faces);
    }
    if (faces !== 0) people.push(upload.id);
  }
  return people;
}
