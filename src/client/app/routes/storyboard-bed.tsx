import { AudioLines, Upload, X } from 'lucide-react';

import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { getUploadParameters } from '../../features/uploads/api/request-upload-target';
import { UploadButton } from '../../features/uploads/components/upload-button';
import { MEDIA_KINDS, UPLOAD_FAILED_TOAST } from '../../features/uploads/media-kinds';
import { summarizeUpload } from '../../features/uploads/upload-result';

const AUDIO_TYPES = MEDIA_KINDS.find((kind) => kind.kind === 'audio')?.allowedFileTypes ?? ['audio/*'];

/** The storyboard's audio bed: music or a voice under the whole film, uploaded as the generator's audio is. */
export function AudioBedSlot({
  objectPath,
  onChange,
}: {
  objectPath: string | null;
  onChange: (objectPath: string | null) => void;
}) {
  const ready = objectPath !== null;
  return (
    <div className="grid gap-2">
      <span className="flex items-center gap-2 text-sm font-medium">
        <AudioLines aria-hidden="true" className="size-4 text-muted-foreground" /> Sound under the film
      </span>
      <div className="flex items-center gap-2">
        <UploadButton
          allowedFileTypes={AUDIO_TYPES}
          onGetUploadParameters={getUploadParameters}
          onComplete={(result) => {
            const uploaded = summarizeUpload(result).objectPath;
            if (uploaded) onChange(uploaded);
            else toast({ variant: 'destructive', ...UPLOAD_FAILED_TOAST });
          }}
          variant="outline"
          buttonClassName="min-w-0 flex-1"
        >
          {ready ? null : <Upload aria-hidden="true" />}
          {ready ? '✓ Audio Ready' : 'Choose Audio'}
        </UploadButton>
        {ready ? (
          <Button
            variant="ghost"
            size="icon"
            aria-label="Remove the sound under the film"
            title="Remove"
            className="text-muted-foreground hover:text-destructive"
            onClick={() => onChange(null)}
          >
            <X aria-hidden="true" />
          </Button>
        ) : null}
      </div>
      <p className="text-xs text-muted-foreground">Music or a voice, mixed under the shots’ own sound.</p>
    </div>
  );
}
