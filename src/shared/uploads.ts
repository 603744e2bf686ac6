import { z } from 'zod';

/** Largest upload accepted: 50 MiB (spec section 5). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** What the upload button's file picker accepts (spec section 5). */
export const UPLOAD_ALLOWED_TYPES = [
  'image/*',
  'video/*',
  'audio/*',
  '.json',
  '.txt',
  '.mp3',
  '.wav',
  '.mp4',
  '.mov',
  '.avi',
  '.jpg',
  '.jpeg',
  '.png',
  '.gif',
] as const;

export const UPLOAD_KINDS = ['image', 'video', 'audio'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/**
 * POST /api/objects/upload: where to send one file. `method` PUT sends the raw file body;
 * POST sends a multipart form with `fields` first and the file last (S3 presigned POST).
 */
export const uploadTargetSchema = z.object({
  uploadURL: z.string(),
  objectPath: z.string(),
  method: z.enum(['PUT', 'POST']),
  fields: z.record(z.string(), z.string()),
  headers: z.record(z.string(), z.string()),
});
export type UploadTarget = z.infer<typeof uploadTargetSchema>;

/** Answer of a completed upload to our own (local storage) upload URL. */
export const uploadCompleteSchema = z.object({
  objectPath: z.string(),
  kind: z.enum(UPLOAD_KINDS),
  contentType: z.string(),
  size: z.number(),
});
export type UploadComplete = z.infer<typeof uploadCompleteSchema>;
