import { useQueryClient } from '@tanstack/react-query';
import { Upload, Wand2, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';

import type { GenerationRecord } from '../../shared/generations';
import { Button, buttonVariants } from '../components/ui/button';
import { toast } from '../components/ui/use-toast';
import { useFinishingTools } from '../features/finishing/api/get-finishing-tools';
import { type FinishUpload, FinishDialog } from '../features/finishing/components/finish-dialog';
import { finishButtonOf, offeredActions } from '../features/finishing/finish-choices';
import { applyGenerationChange } from '../features/generations/api/live-cache';
import { getUploadParameters } from '../features/uploads/api/request-upload-target';
import { UploadDialogButton, useUploadDialog } from '../features/uploads/components/upload-button';
import { MEDIA_KINDS, UPLOAD_FAILED_TOAST } from '../features/uploads/media-kinds';
import { summarizeUpload } from '../features/uploads/upload-result';

const typesOf = (kind: 'audio' | 'image') =>
  MEDIA_KINDS.find((media) => media.kind === kind)?.allowedFileTypes ?? [`${kind}/*`];

/** One file the Finish dialog takes, with the uploads feature's dialog and its control: choose, then the chosen file and Remove. */
function useFinishUpload(
  kind: 'audio' | 'image',
  words: { choose: string; ready: string; remove: string },
): FinishUpload {
  const [file, setFile] = useState<{ objectPath: string; name: string | null } | null>(null);
  const upload = useUploadDialog({
    allowedFileTypes: typesOf(kind),
    onGetUploadParameters: getUploadParameters,
    onComplete: (result) => {
      const { objectPath, name } = summarizeUpload(result);
      if (objectPath) setFile({ objectPath, name });
      else toast({ variant: 'destructive', ...UPLOAD_FAILED_TOAST });
    },
  });
  const control = (
    <div className="grid gap-1">
      <div className="flex items-center gap-2">
        <UploadDialogButton dialog={upload} variant="outline" className="min-w-0 flex-1">
          {file ? null : <Upload aria-hidden="true" />}
          {file ? `✓ ${words.ready}` : words.choose}
        </UploadDialogButton>
        {file ? (
          <Button
            variant="ghost"
            size="icon"
            aria-label={words.remove}
            title={words.remove}
            className="text-muted-foreground hover:text-destructive"
            onClick={() => setFile(null)}
          >
            <X aria-hidden="true" />
          </Button>
        ) : null}
      </div>
      {file?.name ? <p className="truncate text-xs text-muted-foreground">{file.name}</p> : null}
    </div>
  );
  return { objectPath: file?.objectPath ?? null, control, uploading: upload.showing };
}

/**
 * The player's Finish button (the finishing feature), with what it needs from two other features:
 * the uploads feature's dialogs for the recording (add sound, lip-sync) and the picture (restyle),
 * and the generations list the new video goes into at once. The upload dialogs live here, above the
 * Finish dialog, which steps aside while one is on screen. `open`: open at once (?finish=1).
 */
export function FinishButton({ video, open = false }: { video: GenerationRecord; open?: boolean }) {
  const queryClient = useQueryClient();
  const recording = useFinishUpload('audio', {
    choose: 'Choose Recording',
    ready: 'Recording Ready',
    remove: 'Remove the recording',
  });
  const picture = useFinishUpload('image', {
    choose: 'Choose Picture',
    ready: 'Picture Ready',
    remove: 'Remove the picture',
  });
  return (
    <FinishDialog
      video={video}
      recording={recording}
      picture={picture}
      defaultOpen={open}
      onStarted={(record) => applyGenerationChange(queryClient, record)}
    />
  );
}

/**
 * Finish in the dashboard's player: that player is a dialog already, over which the upload dialogs
 * could not be used, so it opens the video on the media page with the Finish dialog open. Shown
 * only when a tool here can finish this video.
 */
export function FinishLink({ video }: { video: GenerationRecord }) {
  const tools = useFinishingTools();
  if (!tools.data || offeredActions(tools.data, video).length === 0) return null;
  const button = finishButtonOf(video);
  return (
    <Link
      href={`/media?video=${encodeURIComponent(video.id)}&finish=1`}
      className={buttonVariants({ variant: button.variant })}
      title="Open this video on the media page to finish it"
    >
      <Wand2 aria-hidden="true" /> {button.label}
    </Link>
  );
}
