import { Flag, ImageIcon, Images, Upload, X } from 'lucide-react';
import type { ReactNode } from 'react';

import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { cn } from '../../../lib/utils';
import { getUploadParameters } from '../api/request-upload-target';
import { MEDIA_KINDS, UPLOAD_FAILED_TOAST } from '../media-kinds';
import { summarizeUpload } from '../upload-result';
import { uploadViewUrl } from '../upload-view';
import type { UploadButtonResult } from '../uploader-types';
import { UploadButton } from './upload-button';

// The slots of the keyframes card (keyframe-inputs.tsx): one image, and the reference images.

const IMAGE_TYPES = MEDIA_KINDS.find((k) => k.kind === 'image')?.allowedFileTypes ?? ['image/*'];
const READY_CLASS =
  'border-emerald-500/60 bg-emerald-50 text-emerald-800 hover:bg-emerald-100 dark:border-emerald-400/50 dark:bg-emerald-950/40 dark:text-emerald-300 dark:hover:bg-emerald-950/70';

/** The uploaded file's object path, or null after a toast saying nothing was uploaded. */
function uploadedPath(result: UploadButtonResult): string | null {
  const { objectPath } = summarizeUpload(result);
  if (!objectPath) toast({ variant: 'destructive', ...UPLOAD_FAILED_TOAST });
  return objectPath ?? null;
}

/** A small picture of a chosen image (what the request will use), from the owner's view of the upload. */
function Thumbnail({
  objectPath,
  alt,
  className,
}: {
  objectPath: string | undefined;
  alt: string;
  className?: string;
}) {
  const url = uploadViewUrl(objectPath);
  if (!url) return null;
  return (
    <img
      src={url}
      alt={alt}
      className={cn('size-11 shrink-0 rounded-md border border-border bg-muted object-cover', className)}
    />
  );
}

interface ImageSlotProps {
  label: string;
  /** The chosen image's object path; undefined while none is chosen. */
  objectPath: string | undefined;
  onUploaded: (objectPath: string) => void;
  onRemove: () => void;
}

/** One image slot: 'Choose <label>' becomes '✓ <label> Ready' with a remove button, as the Media Input slots do. */
export function ImageSlot({ label, objectPath, onUploaded, onRemove }: ImageSlotProps) {
  const ready = Boolean(objectPath);
  return (
    // Label above the button at every width: '✓ Start frame Ready' needs the whole row on a phone.
    <div className="grid content-start gap-2">
      <span className="flex items-center gap-2 text-sm font-medium">
        {label === 'End frame' ? (
          <Flag aria-hidden="true" className="size-4 text-muted-foreground" />
        ) : (
          <ImageIcon aria-hidden="true" className="size-4 text-muted-foreground" />
        )}
        {label}
      </span>
      <div className="flex items-center gap-2">
        <Thumbnail objectPath={objectPath} alt={`The ${label.toLowerCase()}`} />
        <UploadButton
          allowedFileTypes={IMAGE_TYPES}
          onGetUploadParameters={getUploadParameters}
          onComplete={(result) => {
            const uploaded = uploadedPath(result);
            if (uploaded) onUploaded(uploaded);
          }}
          variant="outline"
          buttonClassName={cn('min-w-0 flex-1', ready && READY_CLASS)}
        >
          {ready ? null : <Upload aria-hidden="true" />}
          {ready ? `✓ ${label} Ready` : `Choose ${label}`}
        </UploadButton>
        {ready ? (
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Remove ${label.toLowerCase()}`}
            title={`Remove ${label.toLowerCase()}`}
            className="size-10 text-muted-foreground hover:text-destructive"
            onClick={onRemove}
          >
            <X aria-hidden="true" />
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** Reference images: up to the model's limit, each removable; the add button goes when the limit is reached. */
export function ReferenceSlot({
  limit,
  value,
  onChange,
  blocked,
}: {
  limit: number;
  value: string[];
  onChange: (next: string[]) => void;
  /** Why no reference image can be added now, and the way out (instead of the add button). */
  blocked: ReactNode;
}) {
  const shown = value.slice(0, limit);
  return (
    <div className="grid gap-2 sm:col-span-2">
      <span className="flex items-center gap-2 text-sm font-medium">
        <Images aria-hidden="true" className="size-4 text-muted-foreground" />
        Reference images
        <span className="font-normal text-muted-foreground tabular-nums">
          ({shown.length} of {limit})
        </span>
      </span>
      {shown.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label="Reference images">
          {shown.map((objectPath, index) => (
            <li
              key={objectPath}
              className="flex items-center gap-1 rounded-md border border-emerald-500/60 bg-emerald-50 py-0.5 pl-3 text-sm text-emerald-800 dark:border-emerald-400/50 dark:bg-emerald-950/40 dark:text-emerald-300"
            >
              <Thumbnail objectPath={objectPath} alt={`Reference image ${index + 1}`} className="-ml-2 size-8" />✓
              Reference {index + 1}
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Remove reference image ${index + 1}`}
                title={`Remove reference image ${index + 1}`}
                className="size-8 text-muted-foreground hover:text-destructive"
                onClick={() => onChange(shown.filter((p) => p !== objectPath))}
              >
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {blocked ? (
        blocked
      ) : shown.length < limit ? (
        <UploadButton
          allowedFileTypes={IMAGE_TYPES}
          maxNumberOfFiles={1}
          onGetUploadParameters={getUploadParameters}
          onComplete={(result) => {
            const objectPath = uploadedPath(result);
            if (objectPath) onChange([...shown, objectPath]);
          }}
          variant="outline"
          buttonClassName="w-full sm:w-auto"
        >
          <Upload aria-hidden="true" /> {shown.length === 0 ? 'Choose Reference images' : 'Add a reference image'}
        </UploadButton>
      ) : null}
    </div>
  );
}
