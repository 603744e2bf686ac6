import { type UploadTarget, uploadTargetSchema } from '../../../../shared/uploads';
import { apiRequest } from '../../../lib/api-client';
import { UPLOAD_CONFIGURATION_FAILED } from '../upload-outcome';
import { OBJECT_PATH_META } from '../upload-result';
import type { UploadParameters } from '../uploader-types';

/**
 * POST /api/objects/upload: where to send one file and the object path it will have. Any failure
 * (a non-OK answer, an answer of the wrong shape, no network) becomes the upload button's
 * 'Upload configuration failed. Please try again.', with the original error as its cause.
 *
 * Called by the upload dialog once per file as the upload starts, so it has no query or mutation
 * hook: nothing is cached and no component waits on it.
 */
export async function requestUploadTarget(): Promise<UploadTarget> {
  try {
    const response = await apiRequest('POST', '/api/objects/upload', {});
    return uploadTargetSchema.parse(await response.json());
  } catch (error) {
    throw new Error(UPLOAD_CONFIGURATION_FAILED, { cause: error });
  }
}

/** The upload button's parameters for one file; the object path rides along in the file's meta. */
export async function getUploadParameters(): Promise<UploadParameters> {
  const target = await requestUploadTarget();
  return {
    method: target.method,
    url: target.uploadURL,
    // A PUT sends the raw file: form fields belong to a presigned POST only.
    fields: target.method === 'POST' ? target.fields : undefined,
    headers: target.headers,
    meta: { [OBJECT_PATH_META]: target.objectPath },
  };
}
