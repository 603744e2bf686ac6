import { type ReactNode, useEffect, useRef, useState } from 'react';

import { MAX_UPLOAD_BYTES, UPLOAD_ALLOWED_TYPES } from '../../../../shared/uploads';
import { Button, type ButtonProps } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { UPLOAD_CONFIGURATION_FAILED } from '../upload-outcome';
import type { CreateUploader, UploadButtonResult, Uploader, UploadFile, UploadParameters } from '../uploader-types';

export interface UploadButtonProps {
  /** Uploads (docs/product-rules.md): one file per picker unless told otherwise. */
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
  createUploader: CreateUploader;
}

let uploaderModule: Promise<UploaderModule> | null = null;

function loadUploaderModule(): Promise<UploaderModule> {
  uploaderModule ??= import('../uploader').catch((error: unknown) => {
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

/** What the upload dialog needs from its host: the restrictions and the two callbacks. */
export type UploadDialogOptions = Pick<
  UploadButtonProps,
  'maxNumberOfFiles' | 'maxFileSize' | 'allowedFileTypes' | 'onGetUploadParameters' | 'onComplete'
>;

export interface UploadDialog {
  /** Opens the dialog, loading its code on first use. */
  open: () => void;
  /** True while the dialog's code loads. */
  loading: boolean;
  /**
   * True while the dialog is on screen. A host inside a modal dialog of its own (Radix) steps aside
   * meanwhile: a modal's focus trap and blocked pointer events would leave the upload dialog unusable.
   */
  showing: boolean;
}

/**
 * One upload dialog owned by a component: any of its buttons (Choose, Replace) opens the same
 * dialog. Uploads start when the user presses upload; each file goes straight to storage with the
 * parameters the host supplies.
 */
export function useUploadDialog({
  maxNumberOfFiles = 1,
  maxFileSize = MAX_UPLOAD_BYTES,
  allowedFileTypes = UPLOAD_ALLOWED_TYPES,
  onGetUploadParameters,
  onComplete,
}: UploadDialogOptions): UploadDialog {
  const uploaderRef = useRef<Uploader | null>(null);
  const mountedRef = useRef(false);
  const [loading, setLoading] = useState(false);
  const [showing, setShowing] = useState(false);

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
          onShowingChange: (next) => {
            if (mountedRef.current) setShowing(next);
          },
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

  return { open: () => void openDialog(), loading, showing };
}

/**
 * The reusable upload button (docs/product-rules.md, Screens): opens a modal upload dialog
 * (automatic light/dark theme, progress details, remove button after completion, no branding
 * line) through `useUploadDialog`.
 */
export function UploadButton({ buttonClassName, variant, children, ...options }: UploadButtonProps) {
  const dialog = useUploadDialog(options);
  return (
    <UploadDialogButton dialog={dialog} variant={variant} className={buttonClassName}>
      {children}
    </UploadDialogButton>
  );
}

interface UploadDialogButtonProps {
  dialog: UploadDialog;
  variant?: ButtonProps['variant'];
  className?: string;
  children: ReactNode;
}

/** The upload button for a dialog its host owns (`useUploadDialog` above a dialog that steps aside for it). */
export function UploadDialogButton({ dialog, variant, className, children }: UploadDialogButtonProps) {
  return (
    <Button
      variant={variant}
      className={className}
      aria-haspopup="dialog"
      aria-busy={dialog.loading || undefined}
      disabled={dialog.loading}
      onPointerEnter={preloadUploadDialog}
      onFocus={preloadUploadDialog}
      onClick={dialog.open}
    >
      {children}
    </Button>
  );
}
