import { z } from 'zod';

/** Largest upload accepted: 50 MiB (docs/product-rules.md, Uploads). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/**
 * Longest video input: 60 seconds. Every model makes at most 20 s and loops or trims its input to
 * that length, so a minute leaves room to trim while bounding the work of reading the file.
 */
export const MAX_INPUT_VIDEO_SECONDS = 60;
/** Longest audio input: 10 minutes, a whole song (the video uses its first seconds; sound is cheap to read). */
export const MAX_INPUT_AUDIO_SECONDS = 600;
/** Largest side of a video input's frame: 4096 pixels (4K, landscape or portrait). */
export const MAX_INPUT_VIDEO_SIDE = 4096;
/** Highest frame rate of a video input: 240 frames a second (phones' slow motion). */
export const MAX_INPUT_FRAME_RATE = 240;

/** Upload links one user may hold unused at once (each is valid 15 minutes); more is refused with 429. */
export const MAX_PENDING_UPLOADS_PER_USER = 20;
/** Files one user may be sending at once (the generator has three inputs); more is refused with 429. */
export const MAX_CONCURRENT_UPLOADS_PER_USER = 3;
/**
 * The slowest upload kept: at least 32 KiB in every 10 seconds (about 26 kbit/s, far below any
 * working connection). A slower one is cut off with 408, so a client cannot hold it open forever.
 */
export const MIN_UPLOAD_BYTES_PER_WINDOW = 32 * 1024;
export const UPLOAD_RATE_WINDOW_SECONDS = 10;

/** What the upload button's file picker accepts (docs/product-rules.md, Uploads). */
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
  /**
   * An image in which the face detector found a person (or could not look): a video made from it
   * needs the uploader's consent (`consentToLikeness`). Absent for other kinds.
   */
  showsPeople: z.boolean().optional(),
});
export type UploadComplete = z.infer<typeof uploadCompleteSchema>;
