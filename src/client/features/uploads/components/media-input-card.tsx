import { AudioLines, Film, ImageIcon, type LucideIcon, Upload } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

import type { UploadKind } from '../../../../shared/uploads';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { cn } from '../../../lib/utils';
import { getUploadParameters } from '../api/request-upload-target';
import { MEDIA_KINDS, type MediaKind, UPLOAD_FAILED_TOAST } from '../media-kinds';
import { summarizeUpload } from '../upload-result';
import { uploadViewUrl } from '../upload-view';
import type { UploadButtonResult } from '../uploader-types';
import { preloadUploadDialog, useUploadDialog } from './upload-button';
import { UploadPreview } from './upload-preview';

/** The object path of each uploaded input; a missing kind has not been uploaded. */
export type MediaInputValue = Partial<Record<UploadKind, string>>;

interface MediaInputCardProps {
  value: MediaInputValue;
  onChange: (next: MediaInputValue) => void;
  /** What the host's inputs are, where it knows ('Last frame' for Continue's image). */
  names?: Partial<Record<UploadKind, string>>;
  /** Why an empty slot cannot be used with the rest of the request (shown instead of its Choose button). */
  unavailable?: Partial<Record<UploadKind, string>>;
}

const KIND_ICONS: Record<UploadKind, LucideIcon> = { image: ImageIcon, video: Film, audio: AudioLines };

function without(value: MediaInputValue, kind: UploadKind): MediaInputValue {
  const next = { ...value };
  delete next[kind];
  return next;
}

/**
 * Screens (docs/product-rules.md): three optional uploads; each button reads 'Choose ...' and becomes
 * '✓ ... Ready', shown with what will be used (the image, a video's first frame and length, an
 * audio file's length) and its Replace and Remove buttons.
 */
export function MediaInputCard({ value, onChange, names, unavailable }: MediaInputCardProps) {
  // The picked files' names, by the object path they were stored at.
  const [uploadedNames, setUploadedNames] = useState<Record<string, string>>({});

  function handleComplete({ kind, uploadedToast }: MediaKind, result: UploadButtonResult) {
    const { objectPath, name } = summarizeUpload(result);
    if (!objectPath) {
      toast({ variant: 'destructive', ...UPLOAD_FAILED_TOAST });
      return;
    }
    if (name) setUploadedNames((known) => ({ ...known, [objectPath]: name }));
    onChange({ ...value, [kind]: objectPath });
    toast(uploadedToast);
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Media Input</CardTitle>
        <CardDescription className="hidden sm:block">
          Add an image, a video or an audio track. Each is optional, up to 50 MB.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 sm:grid-cols-3 sm:gap-4">
        {MEDIA_KINDS.map((mediaKind) => {
          const objectPath = value[mediaKind.kind];
          return (
            <MediaPicker
              key={mediaKind.kind}
              mediaKind={mediaKind}
              objectPath={objectPath}
              name={objectPath ? (uploadedNames[objectPath] ?? names?.[mediaKind.kind]) : undefined}
              unavailable={unavailable?.[mediaKind.kind]}
              onComplete={(result) => handleComplete(mediaKind, result)}
              onRemove={() => onChange(without(value, mediaKind.kind))}
            />
          );
        })}
      </CardContent>
    </Card>
  );
}

interface MediaPickerProps {
  mediaKind: MediaKind;
  objectPath: string | undefined;
  name: string | undefined;
  onComplete: (result: UploadButtonResult) => void;
  onRemove: () => void;
  unavailable: string | undefined;
}

function MediaPicker({ mediaKind, objectPath, name, onComplete, onRemove, unavailable }: MediaPickerProps) {
  const { kind, label, allowedFileTypes } = mediaKind;
  const Icon = KIND_ICONS[kind];
  const ready = Boolean(objectPath);
  // Choose and Replace open one dialog.
  const dialog = useUploadDialog({ allowedFileTypes, onGetUploadParameters: getUploadParameters, onComplete });
  // After Remove, focus goes to the Choose button that takes the preview's place.
  const chooseRef = useRef<HTMLButtonElement>(null);
  const focusChoose = useRef(false);
  useEffect(() => {
    if (ready || !focusChoose.current) return;
    focusChoose.current = false;
    chooseRef.current?.focus();
  }, [ready]);

  return (
    <div
      className={cn(
        'grid items-center gap-2 sm:grid-cols-1 sm:content-start',
        ready ? 'grid-cols-1' : 'grid-cols-[7.5rem_minmax(0,1fr)]',
      )}
      data-tour={`upload-${kind}`}
    >
      <span className="flex flex-wrap items-center gap-x-2 text-sm font-medium">
        <Icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
        {label}
        <span className="font-normal text-muted-foreground">(optional)</span>
      </span>
      {objectPath ? (
        <UploadPreview
          kind={kind}
          label={label}
          url={uploadViewUrl(objectPath)}
          name={name}
          onReplace={dialog.open}
          replaceBusy={dialog.loading}
          onReplaceIntent={preloadUploadDialog}
          onRemove={() => {
            focusChoose.current = true;
            onRemove();
          }}
        />
      ) : unavailable ? (
        <p className="text-xs text-muted-foreground">{unavailable}</p>
      ) : (
        <Button
          ref={chooseRef}
          variant="outline"
          className="min-w-0"
          aria-haspopup="dialog"
          aria-busy={dialog.loading || undefined}
          disabled={dialog.loading}
          onPointerEnter={preloadUploadDialog}
          onFocus={preloadUploadDialog}
          onClick={dialog.open}
        >
          <Upload aria-hidden="true" />
          {`Choose ${label}`}
        </Button>
      )}
    </div>
  );
}
