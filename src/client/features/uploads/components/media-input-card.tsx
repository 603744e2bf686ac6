import { AudioLines, Film, ImageIcon, type LucideIcon, Upload, X } from 'lucide-react';

import type { UploadKind } from '../../../../shared/uploads';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { cn } from '../../../lib/utils';
import { getUploadParameters } from '../api/request-upload-target';
import { MEDIA_KINDS, type MediaKind, UPLOAD_FAILED_TOAST } from '../media-kinds';
import { summarizeUpload } from '../upload-result';
import type { UploadButtonResult } from '../uploader-types';
import { UploadButton } from './upload-button';

/** The object path of each uploaded input; a missing kind has not been uploaded. */
export type MediaInputValue = Partial<Record<UploadKind, string>>;

interface MediaInputCardProps {
  value: MediaInputValue;
  onChange: (next: MediaInputValue) => void;
}

const KIND_ICONS: Record<UploadKind, LucideIcon> = { image: ImageIcon, video: Film, audio: AudioLines };

function without(value: MediaInputValue, kind: UploadKind): MediaInputValue {
  const next = { ...value };
  delete next[kind];
  return next;
}

/** Screens (docs/product-rules.md): three optional uploads; each button reads 'Choose ...' and becomes '✓ ... Ready'. */
export function MediaInputCard({ value, onChange }: MediaInputCardProps) {
  function handleComplete({ kind, uploadedToast }: MediaKind, result: UploadButtonResult) {
    const { objectPath } = summarizeUpload(result);
    if (!objectPath) {
      toast({ variant: 'destructive', ...UPLOAD_FAILED_TOAST });
      return;
    }
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
        {MEDIA_KINDS.map((mediaKind) => (
          <MediaPicker
            key={mediaKind.kind}
            mediaKind={mediaKind}
            ready={Boolean(value[mediaKind.kind])}
            onComplete={(result) => handleComplete(mediaKind, result)}
            onRemove={() => onChange(without(value, mediaKind.kind))}
          />
        ))}
      </CardContent>
    </Card>
  );
}

interface MediaPickerProps {
  mediaKind: MediaKind;
  ready: boolean;
  onComplete: (result: UploadButtonResult) => void;
  onRemove: () => void;
}

function MediaPicker({ mediaKind, ready, onComplete, onRemove }: MediaPickerProps) {
  const { kind, label, allowedFileTypes } = mediaKind;
  const Icon = KIND_ICONS[kind];
  return (
    <div
      className="grid grid-cols-[7.5rem_minmax(0,1fr)] items-center gap-2 sm:grid-cols-1 sm:content-start"
      data-tour={`upload-${kind}`}
    >
      <span className="flex items-center gap-2 text-sm font-medium">
        <Icon aria-hidden="true" className="size-4 text-muted-foreground" />
        {label}
        <span className="font-normal text-muted-foreground">(optional)</span>
      </span>
      <div className="flex items-center gap-2">
        <UploadButton
          allowedFileTypes={allowedFileTypes}
          onGetUploadParameters={getUploadParameters}
          onComplete={onComplete}
          variant="outline"
          buttonClassName={cn(
            'min-w-0 flex-1',
            ready &&
              'border-emerald-500/60 bg-emerald-50 text-emerald-800 hover:bg-emerald-100 dark:border-emerald-400/50 dark:bg-emerald-950/40 dark:text-emerald-300 dark:hover:bg-emerald-950/70',
          )}
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
