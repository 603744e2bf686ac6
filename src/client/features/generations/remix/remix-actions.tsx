import { FastForward, Repeat2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';

import { FILM_MODEL_ID } from '../../../../shared/films';
import type { GenerationRecord } from '../../../../shared/generations';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useLastFrameUpload } from '../api/last-frame';
import { useModels } from '../api/get-models';
import { ExtendDialog } from './extend-dialog';
import { canContinue, continueDraft, remixDraft, saveGeneratorDraft } from './generator-draft';

/** What the page adds beside Extend for a video with a file: the finishing feature's Finish button. */
export type FinishSlot = (video: GenerationRecord) => ReactNode;

/**
 * Remix opens the generator with a finished video's prompt, settings, model and inputs; Continue
 * (when a model here takes an image) starts a new video from its last frame; Extend (when the
 * video's own model takes an image) makes it longer: its continuation joined to it; Finish (where
 * the page gives it) makes a finished copy.
 */
export function RemixActions({ video, finishSlot }: { video: GenerationRecord; finishSlot?: FinishSlot }) {
  const [, navigate] = useLocation();
  const models = useModels();
  const lastFrame = useLastFrameUpload();
  if (video.status !== 'completed') return null;
  const remix = () => {
    saveGeneratorDraft(remixDraft(video, models.data ?? []));
    navigate('/generator');
  };
  const continueVideo = () => {
    lastFrame.mutate(video.id, {
      onSuccess: (upload) => {
        saveGeneratorDraft(continueDraft(video, models.data ?? [], upload.objectPath));
        navigate('/generator');
      },
      onError: (error) => {
        toast({
          title: 'Could Not Continue',
          description: getServerMessage(error) ?? 'Please try again.',
          variant: 'destructive',
        });
      },
    });
  };
  const ready = video.outputVideoUrl !== null;
  // Extend continues from the last frame with the video's own model: offered when that model takes an image.
  const ownModel = models.data?.find((m) => m.id === video.model);
  const extendable = ownModel?.available === true && ownModel.inputs.includes('image');
  return (
    <div role="group" aria-label="Make another video from this one" className="grid grid-cols-2 gap-2 sm:flex">
      {/* A film has no prompt or model of its own to open the generator with. */}
      {video.model === FILM_MODEL_ID ? null : (
        <Button
          variant="outline"
          onClick={remix}
          title="Open the generator with this video's prompt, settings, model and inputs"
        >
          <Repeat2 aria-hidden="true" /> Remix
        </Button>
      )}
      {canContinue(models.data) ? (
        <Button
          variant="outline"
          disabled={!ready || lastFrame.isPending}
          onClick={continueVideo}
          title="Start a new video from this video's last frame"
        >
          <FastForward aria-hidden="true" /> {lastFrame.isPending ? 'Preparing...' : 'Continue'}
        </Button>
      ) : null}
      {extendable ? <ExtendDialog video={video} model={ownModel} /> : null}
      {ready && finishSlot ? finishSlot(video) : null}
    </div>
  );
}
