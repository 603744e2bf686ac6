import type { UPLOAD_ALLOWED_TYPES, UploadKind } from '../../../shared/uploads';

type AllowedType = (typeof UPLOAD_ALLOWED_TYPES)[number];

export interface MediaKind {
  kind: UploadKind;
  label: 'Image' | 'Video' | 'Audio';
  /** The picker's restriction: the kind's MIME family and its extensions (docs/product-rules.md, Uploads). */
  allowedFileTypes: readonly AllowedType[];
  /** Wording (docs/product-rules.md): the success toast. */
  uploadedToast: { title: string; description: string };
}

/** The three optional inputs of the Media Input card, in display order. */
export const MEDIA_KINDS: readonly MediaKind[] = [
  {
    kind: 'image',
    label: 'Image',
    allowedFileTypes: ['image/*', '.jpg', '.jpeg', '.png', '.gif'],
    uploadedToast: { title: 'Image Uploaded', description: 'Your image is ready for video generation' },
  },
  {
    kind: 'video',
    label: 'Video',
    allowedFileTypes: ['video/*', '.mp4', '.mov', '.avi'],
    uploadedToast: { title: 'Video Uploaded', description: 'Your video is ready for processing' },
  },
  {
    kind: 'audio',
    label: 'Audio',
    allowedFileTypes: ['audio/*', '.mp3', '.wav'],
    uploadedToast: { title: 'Audio Uploaded', description: 'Your audio is ready for video generation' },
  },
];

/** Wording (docs/product-rules.md): a completed upload with no successful file. */
export const UPLOAD_FAILED_TOAST = { title: 'Upload Failed', description: 'No files were successfully uploaded' };
