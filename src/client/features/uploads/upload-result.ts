import { type CompletedUpload, getFailureMessages } from './upload-outcome';

/** The file meta field holding the object path the server stores an upload at. */
export const OBJECT_PATH_META = 'objectPath';

export interface UploadSummary {
  /** Where the first successful file is stored: what later requests send as imageFile and so on. */
  objectPath: string | null;
  /** That file's name as the user picked it, if Uppy kept one. */
  name: string | null;
  /** The failed files' messages ('Upload failed' when Uppy gave none). */
  failedMessages: string[];
}

/** Reads a finished upload: the stored object path of the uploaded file, and what failed. */
export function summarizeUpload(result: CompletedUpload): UploadSummary {
  const stored = (result.successful ?? []).find((file) => {
    const path = file.meta[OBJECT_PATH_META];
    return typeof path === 'string' && path.length > 0;
  });
  return {
    objectPath: stored ? String(stored.meta[OBJECT_PATH_META]) : null,
    name: stored?.name?.trim() || null,
    failedMessages: getFailureMessages(result),
  };
}
