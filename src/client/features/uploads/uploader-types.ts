// The contract between the upload button and the upload dialog (uploader.ts). Kept apart from both
// so the button can describe the dialog it loads lazily without the two files importing each other.
import type { Body, Meta, UploadResult, UppyFile } from '@uppy/core';

/** A file picked in the upload dialog: name, type, size and meta (Uppy's file). */
export type UploadFile = UppyFile<Meta, Body>;
/** What the dialog hands the host when every file is uploaded (Uppy's result). */
export type UploadButtonResult = UploadResult<Meta, Body>;

/** Where and how one file is sent, supplied by the host for each file (docs/product-rules.md, Uploads). */
export interface UploadParameters {
  /** PUT sends the raw file; POST sends a form of `fields` with the file last (S3 presigned POST). */
  method: 'PUT' | 'POST';
  /** Absolute, or relative to this page (a same-origin signed URL). */
  url: string;
  fields?: Record<string, string>;
  headers?: Record<string, string>;
  /** Kept on the file's meta and so readable from the result, e.g. where the server stores it. */
  meta?: Record<string, string>;
}

export interface UploadRestrictions {
  maxNumberOfFiles: number;
  maxFileSize: number;
  allowedFileTypes: readonly string[];
}

export interface UploaderOptions {
  restrictions: UploadRestrictions;
  getUploadParameters: (file: UploadFile) => Promise<UploadParameters>;
  onComplete: (result: UploadButtonResult) => void;
  /** Called as the dialog comes on screen (true) and goes (false): a host dialog can step aside meanwhile. */
  onShowingChange?: (showing: boolean) => void;
}

export interface Uploader {
  /** Opens the modal dialog; after a completed upload it opens empty, ready for the next file. */
  open: () => void;
  setRestrictions: (restrictions: UploadRestrictions) => void;
  /** Closes the dialog, cancels what is in flight and removes the dialog from the page. */
  destroy: () => void;
}

/** What uploader.ts exports: makes one dialog. */
export type CreateUploader = (options: UploaderOptions) => Uploader;
