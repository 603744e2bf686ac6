import { Wand2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useLocation } from 'wouter';

import { FINISH_ACTION_LABELS, finishPriceHundredths, type UpscaleResolution } from '../../../../shared/finishing';
import type { CreatedGenerationRecord, GenerationRecord } from '../../../../shared/generations';
import { formatCreditCount, toCredits } from '../../../../shared/money/credits';
import { Button } from '../../../components/ui/button';
import { ChoiceChips } from '../../../components/ui/choice-chips';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useFinishVideo } from '../api/finish-video';
import { useFinishingTools } from '../api/get-finishing-tools';
import {
  type DrawnAction,
  finishBlocker,
  finishBody,
  type FinishForm,
  finishVerb,
  type Keep,
  type OfferedAction,
  offeredActions,
} from '../finish-choices';
import { UpscaleChoices } from './upscale-choices';

/** The recording add sound lays under the video, with its upload control: the page gives the uploads feature's. */
export interface FinishRecording {
  objectPath: string | null;
  /** Choose Recording, then the chosen file (press it to replace it) and its Remove. */
  control: ReactNode;
  /** The upload dialog is on screen: this dialog steps aside until it closes. */
  uploading: boolean;
}

interface FinishDialogProps {
  video: GenerationRecord;
  recording: FinishRecording;
  /** The new video: the page puts it into its list at once. */
  onStarted: (record: CreatedGenerationRecord) => void;
}

/**
 * Finish (issue 48): a finished copy of a video, made by one of this installation's tools (upscale
 * and smooth, add sound), priced before the click; the original stays as it is. Offers only what an
 * available tool does, and nothing at all when none does.
 */
export function FinishDialog({ video, recording, onStarted }: FinishDialogProps) {
  const [, navigate] = useLocation();
  const tools = useFinishingTools();
  const [open, setOpen] = useState(false);
  // Kept here, above the dialog's content, so stepping aside for the upload dialog loses nothing.
  const [action, setAction] = useState<DrawnAction | null>(null);
  const [resolution, setResolution] = useState<UpscaleResolution | Keep>('keep');
  const [fps, setFps] = useState<number | Keep>('keep');
  const finish = useFinishVideo(onStarted);
  const offers = tools.data ? offeredActions(tools.data, video) : [];
  const offer = offers.find((o) => o.action === action) ?? offers[0];
  if (!offer) return null;
  const form: FinishForm = { action: offer.action, resolution, fps, recording: recording.objectPath };
  const start = () => {
    finish.mutate(
      { id: video.id, body: finishBody(offer, form) },
      {
        onSuccess: (record) => {
          setOpen(false);
          toast({
            title: 'Finishing Started',
            description: 'The finished video appears here when it is ready. This one stays as it is.',
            duration: 3000,
          });
          navigate(`/media?video=${encodeURIComponent(record.id)}`);
        },
        onError: (error) => {
          toast({
            title: 'Could Not Finish',
            description: getServerMessage(error) ?? 'Please try again.',
            variant: 'destructive',
          });
        },
      },
    );
  };
  const what = offers.map((o) => FINISH_ACTION_LABELS[o.action].toLowerCase()).join(', or ');
  return (
    <Dialog open={open && !recording.uploading} onOpenChange={(next) => !finish.isPending && setOpen(next)}>
      <DialogTrigger asChild>
        {/* A draft was made to be finished: its button says so, and stands out. */}
        <Button variant={video.isDraft ? 'default' : 'outline'} title={`A finished copy of this video: ${what}`}>
          <Wand2 aria-hidden="true" /> {video.isDraft ? 'Finish this take' : 'Finish'}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-lg">
        <FinishFields
          video={video}
          offers={offers}
          offer={offer}
          form={form}
          onAction={setAction}
          onResolution={setResolution}
          onFps={setFps}
          recordingControl={recording.control}
          pending={finish.isPending}
          onSubmit={start}
        />
      </DialogContent>
    </Dialog>
  );
}

interface FinishFieldsProps {
  video: GenerationRecord;
  offers: OfferedAction[];
  offer: OfferedAction;
  form: FinishForm;
  onAction: (action: DrawnAction) => void;
  onResolution: (resolution: UpscaleResolution | Keep) => void;
  onFps: (fps: number | Keep) => void;
  recordingControl: ReactNode;
  pending: boolean;
  onSubmit: () => void;
}

/** The dialog's form: the action, its tool in words, its choices, the price, and why it cannot start yet. */
function FinishFields({
  video,
  offers,
  offer,
  form,
  onAction,
  onResolution,
  onFps,
  recordingControl,
  pending,
  onSubmit,
}: FinishFieldsProps) {
  const hintId = useId();
  const blocker = finishBlocker(offer, form, video);
  const price = formatCreditCount(toCredits(finishPriceHundredths(offer.tool, video.duration)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!blocker) onSubmit();
  };
  return (
    <form onSubmit={submit} className="grid gap-5" aria-label="Finish this video">
      <div className="grid gap-1.5">
        <DialogTitle>Finish this video</DialogTitle>
        <DialogDescription>You get a new, finished video. This one stays as it is.</DialogDescription>
      </div>
      {offers.length > 1 ? (
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm leading-none font-medium">What to do</legend>
          <ChoiceChips
            choices={offers.map((o) => ({ value: o.action, label: FINISH_ACTION_LABELS[o.action] }))}
            value={offer.action}
            onChange={onAction}
            label="What to do"
          />
        </fieldset>
      ) : null}
      <div className="grid gap-1 rounded-lg border border-border p-3" data-testid="finish-tool">
        <p className="text-sm font-medium">{offer.tool.name}</p>
        <p className="text-xs text-muted-foreground">{offer.tool.method}</p>
      </div>
      {offer.action === 'upscale' ? (
        <UpscaleChoices offer={offer} form={form} onResolution={onResolution} onFps={onFps} />
      ) : (
        <div className="grid gap-2">
          <span className="text-sm leading-none font-medium">
            Recording{offer.tool.audio === 'required' ? null : ' (optional)'}
          </span>
          {recordingControl}
          <p className="text-xs text-muted-foreground">Music or a voice, laid under the whole video.</p>
        </div>
      )}
      <div className="flex items-baseline justify-between gap-3 rounded-lg bg-muted p-3 text-sm">
        <span className="text-muted-foreground">
          Cost
          {offer.tool.pricePer === 'second' ? ` (${formatCreditCount(offer.tool.credits)} a second)` : null}
        </span>
        <span className="shrink-0 font-semibold whitespace-nowrap tabular-nums" data-testid="finish-cost">
          {price}
        </span>
      </div>
      {blocker ? (
        <p
          id={hintId}
          role={blocker.kind === 'refused' ? 'alert' : undefined}
          className={blocker.kind === 'refused' ? 'text-sm text-destructive' : 'text-sm text-muted-foreground'}
        >
          {blocker.message}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <DialogClose asChild>
          <Button type="button" variant="outline" disabled={pending}>
            Cancel
          </Button>
        </DialogClose>
        <Button
          type="submit"
          variant="brand"
          disabled={blocker !== null || pending}
          aria-describedby={blocker ? hintId : undefined}
        >
          <Wand2 aria-hidden="true" /> {pending ? 'Starting...' : `${finishVerb(offer, form)} · ${price}`}
        </Button>
      </div>
    </form>
  );
}
