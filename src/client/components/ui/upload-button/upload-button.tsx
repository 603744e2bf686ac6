import type { Body, Meta, UploadResult, UppyFile } from '@uppy/core';
import { type ReactNode, useEffect, useRef, useState } from 'react';

import { MAX_UPLOAD_BYTES, UPLOAD_ALLOWED_TYPES } from '../../../../shared/uploads';
import { Button, type ButtonProps } from '../button';
import { toast } from '../use-toast';
import { UPLOAD_CONFIGURATION_FAILED } from './upload-outcome';
import type { createUploader, Uploader } from './uploader';

/** A file picked in the upload dialog: name, type, size and meta (Uppy's file). */
export type UploadFile = UppyFile<Meta, Body>;
/** What the dialog hands the host when every file is uploaded (Uppy's result). */
export type UploadButtonResult = UploadResult<Meta, Body>;

/** Where and how one file is sent, supplied by the host for each file (spec section 7). */
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

export interface UploadButtonProps {
  /** Spec section 5: one file per picker unless told otherwise. */
  maxNumberOfFiles?: number;
  /** Bytes; 50 MiB unless told otherwise. */
  maxFileSize?: number;
  /** MIME patterns and extensions, as the file picker's `accept`. */
  allowedFileTypes?: readonly string[];
  /** Called once per file when the user presses upload; a rejection fails that file. */
  onGetUploadParameters: (file: UploadFile) => Promise<UploadParameters>;
  /** Called when every file of an upload succeeded, just before the dialog closes. */
  onComplete?: (result: UploadButtonResult) => void;
  buttonClassName?: string;
  variant?: ButtonProps['variant'];
  children: ReactNode;
}

// Uppy, its dialog and its styles are a chunk of their own, loaded when a button is first used
// (or hovered), so the pages that only show the button stay small.
interface UploaderModule {
  createUploader: typeof createUploader;
}

let uploaderModule: Promise<UploaderModule> | null = null;

function loadUploaderModule(): Promise<UploaderModule> {
  uploaderModule ??= import('./uploader').catch((error: unknown) => {
    uploaderModule = null; // a later click tries again
    throw error;
  });
  return uploaderModule;
}

/** Starts loading the upload dialog's code ahead of the first click. */
export function preloadUploadDialog(): void {
  loadUploaderModule().catch(() => {
    // The click loads it again and reports the failure.
  });
}

/**
 * The reusable upload button (spec section 2, "Upload dialog"): opens a modal upload dialog
 * (automatic light/dark theme, progress details, remove button after completion, no branding
 * line). Uploads start when the user presses upload; each file goes straight to storage with the
 * parameters the host supplies.
 */
export function UploadButton({
  maxNumberOfFiles = 1,
  maxFileSize = MAX_UPLOAD_BYTES,
  allowedFileTypes = UPLOAD_ALLOWED_TYPES,
  onGetUploadParameters,
  onComplete,
  buttonClassName,
  variant,
  children,
}: UploadButtonProps) {
  const uploaderRef = useRef<Uploader | null>(null);
  const mountedRef = useRef(false);
  const [loading, setLoading] = useState(false);

  // Uppy calls back long after a render, so it reads the latest props through a ref.
  const latestRef = useRef({
    onGetUploadParameters,
    onComplete,
    restrictions: { maxNumberOfFiles, maxFileSize, allowedFileTypes },
  });
  useEffect(() => {
    latestRef.current = {
      onGetUploadParameters,
      onComplete,
      restrictions: { maxNumberOfFiles, maxFileSize, allowedFileTypes },
    };
  });

  const allowedTypesKey = allowedFileTypes.join(',');
  useEffect(() => {
    uploaderRef.current?.setRestrictions(latestRef.current.restrictions);
  }, [maxNumberOfFiles, maxFileSize, allowedTypesKey]);

  useEffect(() => {
    mountedRef.current = true;
    return () => {
      mountedRef.current = false;
      uploaderRef.current?.destroy();
      uploaderRef.current = null;
    };
  }, []);

  async function openDialog() {
    let uploader = uploaderRef.current;
    if (!uploader) {
      setLoading(true);
      try {
        const { createUploader } = await loadUploaderModule();
        if (!mountedRef.current) return;
        uploader = uploaderRef.current ??= createUploader({
          restrictions: latestRef.current.restrictions,
          getUploadParameters: (file) => latestRef.current.onGetUploadParameters(file),
          onComplete: (result) => latestRef.current.onComplete?.(result),
        });
      } catch (error) {
        console.warn('The upload dialog could not be loaded:', error);
        toast({ variant: 'destructive', title: 'Upload Failed', description: UPLOAD_CONFIGURATION_FAILED });
        return;
      } finally {
        if (mountedRef.current) setLoading(false);
      }
    }
    uploader.open();
  }

  return (
    <Button
      variant={variant}
      className={buttonClassName}
      aria-haspopup="dialog"
      aria-busy={loading || undefined}
      disabled={loading}
      onPointerEnter={preloadUploadDialog}
      onFocus={preloadUploadDialog}
      onClick={() => void openDialog()}
    >
      {children}
    </Button>
  );
}
