// What the upload button does when Uppy reports a finished upload. Pure, so it is tested without
// loading Uppy; the types describe only the parts of Uppy's result that are read here.

/** Shown when the host could not supply upload parameters (docs/product-rules.md, Wording). */
export const UPLOAD_CONFIGURATION_FAILED = 'Upload configuration failed. Please try again.';
/** A failed file's text when Uppy gave none (docs/product-rules.md, Wording). */
export const UPLOAD_FAILED = 'Upload failed';

/** One file of a finished upload: Uppy's `UppyFile` has these and more. */
export interface CompletedUploadFile {
  id: string;
  name?: string;
  error?: string | null;
  meta: Record<string, unknown>;
}

/** Uppy's `UploadResult`: the files that were uploaded and the ones that failed. */
export interface CompletedUpload<F extends CompletedUploadFile = CompletedUploadFile> {
  successful?: F[];
  failed?: F[];
}

/** The error text of every failed file, 'Upload failed' for a file without one. */
export function getFailureMessages(result: CompletedUpload): string[] {
  return (result.failed ?? []).map((file) => file.error?.trim() || UPLOAD_FAILED);
}

interface SettleActions<R> {
  /** The host's completion callback. */
  onComplete: (result: R) => void;
  /** Closes the dialog. */
  close: () => void;
  /** Where a failure is logged; it is never shown as an error to the user. */
  warn: (message: string) => void;
}

/**
 * Screens (docs/product-rules.md): if any file failed, the failure is logged, the callback is not called and the
 * dialog stays open (Uppy shows the failure and a retry button). Otherwise the callback receives
 * the result and the dialog closes. Returns whether the upload counted as completed.
 */
export function settleUpload<R extends CompletedUpload>(result: R, actions: SettleActions<R>): boolean {
  const failures = getFailureMessages(result);
  if (failures.length > 0) {
    actions.warn(`Upload failed: ${failures.join(', ')}`);
    return false;
  }
  actions.onComplete(result);
  actions.close();
  return true;
}

/**
 * The sentence in a failed storage answer: our own upload URL answers `{ code, message }` as
 * JSON (S3 answers XML, left to Uppy's own text). `error` is what Uppy reports for the file; its
 * S3 client keeps the answer's text as `body`.
 */
export function readStorageErrorMessage(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || !('body' in error)) return null;
  const { body } = error;
  if (typeof body !== 'string' || !body.trimStart().startsWith('{')) return null;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null || !('message' in parsed)) return null;
    const { message } = parsed;
    return typeof message === 'string' && message.trim() ? message.trim() : null;
  } catch {
    return null;
  }
}

/** What a refused upload says when its answer carries no sentence of ours, by HTTP status: never "S3 returned 415". */
const STATUS_WORDS: Record<number, string> = {
  403: 'The upload link has expired or was already used. Choose the file again.',
  413: 'This file is too large. Files can be up to 50 MB.',
  415: 'Only images, videos and audio files can be uploaded.',
  429: 'Too many uploads at once. Wait for one to finish, then retry.',
};
const UPLOAD_DID_NOT_GO_THROUGH = 'The upload did not go through. Check your connection, then retry.';

/**
 * Whether trying the same file again can work: not when the server refused the file itself (its
 * type, its size, anything else it named with a 4xx), only after a lost connection, a server
 * failure, an expired link (a retry asks for a new one) or too many uploads at once.
 */
export function isRetryableUpload(error: unknown): boolean {
  const status = typeof error === 'object' && error !== null && 'status' in error ? error.status : null;
  if (typeof status !== 'number' || status < 400 || status >= 500) return true;
  return status === 403 || status === 408 || status === 429;
}

/**
 * The sentence a person sees for a failed file: our upload URL's own (its JSON answer), else a plain
 * one for the answer's status (a browser can lose the body of an answer sent while the file was
 * still going up, and S3 answers XML), never the storage client's "S3 returned 415".
 */
export function plainUploadError(error: unknown): string {
  const own = readStorageErrorMessage(error);
  if (own) return own;
  const status = typeof error === 'object' && error !== null && 'status' in error ? error.status : null;
  return (typeof status === 'number' && STATUS_WORDS[status]) || UPLOAD_DID_NOT_GO_THROUGH;
}
