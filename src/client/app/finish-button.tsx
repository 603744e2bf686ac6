import { useQueryClient } from '@tanstack/react-query';
import { Upload, X } from 'lucide-react';
import { useState } from 'react';

import type { GenerationRecord } from '../../shared/generations';
import { Button } from '../components/ui/button';
import { toast } from '../components/ui/use-toast';
import { FinishDialog } from '../features/finishing/components/finish-dialog';
import { applyGenerationChange } from '../features/generations/api/live-cache';
import { getUploadParameters } from '../features/uploads/api/request-upload-target';
import { UploadDialogButton, useUploadDialog } from '../features/uploads/components/upload-button';
import { MEDIA_KINDS, UPLOAD_FAILED_TOAST } from '../features/uploads/media-kinds';
import { summarizeUpload } from '../features/uploads/upload-result';

const AUDIO_TYPES = MEDIA_KINDS.find((kind) => kind.kind === 'audio')?.allowedFileTypes ?? ['audio/*'];

/**
 * The player's Finish button (the finishing feature), with what it needs from two other features:
 * the uploads feature's dialog for add sound's recording, and the generations list the new video
 * goes into at once. Its upload dialog lives here, above the Finish dialog, which steps aside while
 * it is on screen.
 */
export function FinishButton({ video }: { video: GenerationRecord }) {
  const queryClient = useQueryClient();
  const [recording, setRecording] = useState<{ objectPath: string; name: string | null } | null>(null);
  const upload = useUploadDialog({
    allowedFileTypes: AUDIO_TYPES,
    onGetUploadParameters: getUploadParameters,
    onComplete: (result) => {
      const { objectPath, name } = summarizeUpload(result);
      if (objectPath) setRecording({ objectPath, name });
      else toast({ variant: 'destructive', ...UPLOAD_FAILED_TOAST });
    },
  });
  const control = (
    <div className="grid gap-1">
      <div className="flex items-center gap-2">
        <UploadDialogButton dialog={upload} variant="outline" className="min-w-0 flex-1">
          {recording ? null : <Upload aria-hidden="true" />}
          {recording ? '✓ Recording Ready' : 'Choose Recording'}
        </UploadDialogButton>
        {recording ? (
          <Button
            variant="ghost"
            size="icon"
            aria-label="Remove the recording"
            title="Remove the recording"
            className="text-muted-foreground hover:text-destructive"
            onClick={() => setRecording(null)}
          >
            <X aria-hidden="true" />
          </Button>
        ) : null}
      </div>
      {recording?.name ? <p className="truncate text-xs text-muted-foreground">{recording.name}</p> : null}
    </div>
  );
  return (
    <FinishDialog
      video={video}
      recording={{ objectPath: recording?.objectPath ?? null, control, uploading: upload.showing }}
      onStarted={(record) => applyGenerationChange(queryClient, record)}
    />
  );
}
