// The upload dialog itself: Uppy with its Dashboard as a modal and direct-to-storage uploads.
// Only components/upload-button.tsx imports this file, and only dynamically: Uppy and its styles
// stay out of every page's first load. Its types are in uploader-types.ts.
import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';
import './upload-dialog.css';

import AwsS3 from '@uppy/aws-s3';
import Uppy, { type Body, type Meta } from '@uppy/core';
import Dashboard from '@uppy/dashboard';

import { isRetryableUpload, plainUploadError, settleUpload, UPLOAD_CONFIGURATION_FAILED } from './upload-outcome';
import type { Uploader, UploaderOptions, UploadFile, UploadParameters, UploadRestrictions } from './uploader-types';

/** Browser timings (docs/product-rules.md): the widget's information messages stay 5 seconds. */
const INFO_TIMEOUT_MS = 5000;

let instances = 0;

function toRestrictions({ maxNumberOfFiles, maxFileSize, allowedFileTypes }: UploadRestrictions) {
  return { maxNumberOfFiles, maxFileSize, allowedFileTypes: [...allowedFileTypes] };
}

/** Warnings only: the product logs upload failures and restriction failures, it never errors. */
function warn(...args: unknown[]): void {
  console.warn('[Uppy]', ...args);
}

export function createUploader(options: UploaderOptions): Uploader {
  instances += 1;
  const uppy = new Uppy<Meta, Body>({
    // Several buttons share the page; a distinct id keeps the dialogs' element ids apart.
    id: `upload-dialog-${instances}`,
    autoProceed: false,
    restrictions: toRestrictions(options.restrictions),
    infoTimeout: INFO_TIMEOUT_MS,
    // Uppy's default logger reports failed uploads with console.error.
    logger: { debug: () => {}, warn: () => {}, error: warn },
  });

  uppy.use(Dashboard, {
    inline: false,
    theme: 'auto',
    hideProgressDetails: false,
    showRemoveButtonAfterComplete: true,
    proudlyDisplayPoweredByUppy: false,
    closeModalOnClickOutside: false,
    // The dialog closes itself only when every file succeeded (see 'complete' below).
    closeAfterFinish: false,
  });

  uppy.use(AwsS3, {
    // One request per file, by form POST or raw PUT: multipart is off.
    shouldUseMultipart: false,
    // The object key Uppy proposes is only our handle to find the file again in signRequest;
    // the host decides where the file is stored.
    generateObjectKey: (file) => file.id,
    signRequest: async (request) => {
      if (request.method !== 'PUT' || 'uploadId' in request) {
        throw new Error(`Unexpected ${request.method} request: multipart uploads are turned off`);
      }
      const file = uppy.getFile(request.key) as UploadFile | undefined;
      let parameters: UploadParameters;
      try {
        if (!file) throw new Error(`The file ${request.key} is no longer in the dialog`);
        parameters = await options.getUploadParameters(file);
      } catch (error) {
        warn('Getting upload parameters failed:', error);
        uppy.info(UPLOAD_CONFIGURATION_FAILED, 'error', INFO_TIMEOUT_MS);
        throw new Error(UPLOAD_CONFIGURATION_FAILED, { cause: error });
      }
      if (parameters.meta) uppy.setFileMeta(file.id, parameters.meta);
      // Uppy derives the stored location from the URL, which therefore has to be absolute.
      const url = new URL(parameters.url, window.location.href).href;
      if (parameters.method === 'POST') {
        return { url, fields: parameters.fields ?? {}, headers: parameters.headers };
      }
      return { url, headers: parameters.headers };
    },
  });

  const dashboard = uppy.getPlugin<Dashboard<Meta, Body>>('Dashboard');
  if (!dashboard) throw new Error('The upload dialog did not install');

  // A plain sentence on the file (our upload URL's own, else one for the status) instead of Uppy's
  // "S3 returned 415", and said in the dialog's message bar too, not only in the file's tooltip.
  // Core's own handler ran first, so this one wins. A file the server refused (its type, its size)
  // is offered no Retry, which could only fail again: the way on is another file.
  uppy.on('upload-error', (file, error) => {
    const message = plainUploadError(error);
    if (file && uppy.getFile(file.id)) uppy.setFileState(file.id, { error: message });
    uppy.info(message, 'error', INFO_TIMEOUT_MS);
    // Marked on the dialog, which upload-dialog.css reads: Uppy has no Retry per file, and its own
    // option, set at this point, leaves the file's button drawn (titled "Retry upload") until the
    // file changes again.
    dashboard.el?.toggleAttribute('data-refused', !isRetryableUpload(error));
  });
  uppy.on('file-added', () => dashboard.el?.removeAttribute('data-refused'));

  // Screens (docs/product-rules.md): restriction failures are only logged (the dialog shows its own message).
  uppy.on('restriction-failed', (file, error) => {
    warn('Restriction failed:', file?.name ?? '', error.message);
  });

  uppy.on('dashboard:modal-open', () => options.onShowingChange?.(true));
  uppy.on('dashboard:modal-closed', () => options.onShowingChange?.(false));

  let clearOnOpen = false;
  uppy.on('complete', (result) => {
    const completed = settleUpload(result, {
      onComplete: options.onComplete,
      close: () => void dashboard.closeModal(),
      warn: (message) => console.warn(message),
    });
    // Cleared on the next open rather than now, so the closing dialog does not flash empty.
    if (completed) clearOnOpen = true;
  });

  return {
    open() {
      if (clearOnOpen) {
        clearOnOpen = false;
        uppy.clear();
      }
      // Uppy names its outer element, a plain box outside every landmark (which assistive technology
      // reads as stray content); the element with role="dialog" inside it is the one to name.
      dashboard.el?.querySelector('.uppy-Dashboard')?.removeAttribute('aria-label');
      dashboard.el?.querySelector('.uppy-Dashboard-inner')?.setAttribute('aria-label', 'Upload files');
      void dashboard.openModal();
    },
    setRestrictions(restrictions) {
      uppy.setOptions({ restrictions: toRestrictions(restrictions) });
    },
    destroy() {
      // Cancels uploads in flight; the Dashboard removes itself and gives the page its scroll back.
      uppy.destroy();
    },
  };
}
