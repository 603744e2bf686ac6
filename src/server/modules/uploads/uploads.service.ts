import { randomUUID } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { expiryFrom } from '../../../shared/retention';
import { MAX_UPLOAD_BYTES, type UploadComplete, type UploadKind, type UploadTarget } from '../../../shared/uploads';
import type { ServiceContext } from '../../context';
import { badRequest, forbidden } from '../../lib/app-error';
import { sniff, UploadGuard } from './upload-guard';
import { signedUploadPath, UPLOAD_URL_TTL_SECONDS } from './upload-signature';
import * as repo from './uploads.repository';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const OBJECT_PATH = new RegExp(`^/objects/uploads/(${UUID})/(${UUID})$`);
const UPLOAD_URL_PATH = new RegExp(`^/api/uploads/(${UUID})$`);

const objectKeyOf = (userId: string, id: string) => `uploads/${userId}/${id}`;
export const objectPathOf = (userId: string, id: string) => `/objects/${objectKeyOf(userId, id)}`;
/** Every object of one user lives under this prefix. */
export const userUploadsPrefix = (userId: string) => `uploads/${userId}/`;

/**
 * Reserves an upload in the caller's own namespace (the server picks the key) and answers where
 * to send the file: our signed URL on local storage, a presigned POST on S3.
 */
export async function createUploadTarget(ctx: ServiceContext, userId: string): Promise<UploadTarget> {
  const now = ctx.now();
  const id = randomUUID();
  const key = objectKeyOf(userId, id);
  const row = await repo.insertUpload(ctx.db, { id, userId, objectKey: key, createdAt: now, expiresAt: expiryFrom(now) });
  const objectPath = objectPathOf(userId, row.id);
  const direct = await ctx.storage.createDirectUpload(key, {
    maxBytes: MAX_UPLOAD_BYTES,
    expiresInSeconds: UPLOAD_URL_TTL_SECONDS,
  });
  if (direct) return { uploadURL: direct.url, objectPath, method: direct.method, fields: direct.fields, headers: direct.headers };
  return { uploadURL: signedUploadPath(ctx.secret, row.id, now), objectPath, method: 'PUT', fields: {}, headers: {} };
}

/**
 * Streams one file into storage through the size and type guard. The link works once: a second
 * use is 403, and a refused file leaves nothing behind.
 */
export async function receiveUpload(ctx: ServiceContext, id: string, body: Readable): Promise<UploadComplete> {
  const row = await repo.claimPendingUpload(ctx.db, id);
  if (!row) throw forbidden('This upload link has already been used.', 'upload_link_used');
  const guard = new UploadGuard();
  // Errors of either stream reach storage.put through the guard; the callback only keeps them handled.
  pipeline(body, guard, () => undefined);
  try {
    const { size } = await ctx.storage.put(row.objectKey, guard, 'application/octet-stream');
    const detected = guard.detected;
    if (!detected) throw new Error('upload guard let a file through without a type');
    await repo.completeUpload(ctx.db, id, {
      kind: detected.kind,
      contentType: detected.mime,
      sizeBytes: size,
      completedAt: ctx.now(),
    });
    return { objectPath: objectPathOf(row.userId, id), kind: detected.kind, contentType: detected.mime, size };
  } catch (error) {
    await ctx.storage.delete(row.objectKey).catch(() => undefined);
    await repo.deleteUpload(ctx.db, id);
    throw error;
  }
}

export interface ResolvedUpload {
  id: string;
  objectKey: string;
  kind: UploadKind;
  contentType: string;
  sizeBytes: number;
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
  const notYours = () => badRequest('That file is not one of your uploads, or its upload did not finish.', 'invalid_upload');
  const parsed = parseReference(ref);
  if (!parsed || (parsed.userId && parsed.userId !== userId)) throw notYours();
  const row = await repo.findUserUpload(ctx.db, userId, parsed.id);
  if (!row || row.expiresAt < ctx.now()) throw notYours();
  if (row.status === 'completed' && row.kind && row.contentType && row.sizeBytes !== null) {
    return { id: row.id, objectKey: row.objectKey, kind: row.kind, contentType: row.contentType, sizeBytes: row.sizeBytes };
  }
  if (row.status !== 'pending' || ctx.storage.kind !== 's3') throw notYours();
  const stat = await ctx.storage.stat(row.objectKey);
  if (!stat || stat.size === 0 || stat.size > MAX_UPLOAD_BYTES) {
    if (stat) await ctx.storage.delete(row.objectKey);
    throw notYours();
  }
  const head = await buffer(await ctx.storage.read(row.objectKey, { start: 0, end: Math.min(stat.size, 4100) - 1 }));
  const type = await sniff(head);
  if (!type) {
    await ctx.storage.delete(row.objectKey);
    throw notYours();
  }
  await repo.completeUpload(ctx.db, row.id, { kind: type.kind, contentType: type.mime, sizeBytes: stat.size, completedAt: ctx.now() });
  return { id: row.id, objectKey: row.objectKey, kind: type.kind, contentType: type.mime, sizeBytes: stat.size };
}

/** Deletes expired uploads (all users', or one user's) and their files; files already gone are fine. */
export async function sweepExpiredUploads(ctx: ServiceContext, userId?: string): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await repo.findExpired(ctx.db, ctx.now(), userId, 200);
    for (const row of batch) {
      await ctx.storage.delete(row.objectKey);
      await repo.deleteUpload(ctx.db, row.id);
    }
    removed += batch.length;
    if (batch.length < 200) return removed;
  }
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
