import { Wand2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';

import {
  type FinishAction,
  FINISH_ACTION_LABELS,
  finishPriceHundredths,
  type UpscaleResolution,
} from '../../../../shared/finishing';
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
import { useNewVideoOutcome } from '../../../lib/new-video';
import { useFinishVideo } from '../api/finish-video';
import { useFinishingTools } from '../api/get-finishing-tools';
import {
  type ActionOffer,
  finishBlocker,
  finishBody,
  finishButtonOf,
  type FinishForm,
  finishVerb,
  fitForm,
  type Keep,
  type OfferedAction,
  offeredActions,
} from '../finish-choices';
import { FinishInputs } from './finish-inputs';
import { UpscaleChoices } from './upscale-choices';

/** An upload the dialog takes (add sound's or lip-sync's recording, restyle's picture), with its control: the page gives the uploads feature's. */
export interface FinishUpload {
  objectPath: string | null;
  /** Choose ..., then the chosen file (press it to replace it) and its Remove. */
  control: ReactNode;
  /** The upload dialog is on screen: this dialog steps aside until it closes. */
  uploading: boolean;
}

interface FinishDialogProps {
  video: GenerationRecord;
  recording: FinishUpload;
  picture: FinishUpload;
  /** The new video: the page puts it into its list at once. */
  onStarted: (record: CreatedGenerationRecord) => void;
  /** Open at once (the dashboard's player sends here with ?finish=1). */
  defaultOpen?: boolean;
}

/**
 * Finish (issue 48): a finished copy of a video, made by one of this installation's tools (upscale
 * and smooth, add sound, lip-sync, restyle), priced before the click; the original stays as it is.
 * Offers only what an available tool does, and nothing at all when none does.
 */
export function FinishDialog({ video, recording, picture, onStarted, defaultOpen = false }: FinishDialogProps) {
  const tools = useFinishingTools();
  const [open, setOpen] = useState(defaultOpen);
  // Kept here, above the dialog's content, so stepping aside for an upload dialog loses nothing.
  const [action, setAction] = useState<FinishAction | null>(null);
  const [toolIds, setToolIds] = useState<Partial<Record<FinishAction, string>>>({});
  const [resolution, setResolution] = useState<UpscaleResolution | Keep>('keep');
  const [fps, setFps] = useState<number | Keep>('keep');
  // Each action its own description: a restyle's look is no sound's.
  const [prompts, setPrompts] = useState<Partial<Record<FinishAction, string>>>({});
  const finish = useFinishVideo(onStarted);
  const outcome = useNewVideoOutcome(() => setOpen(false), {
    started: {
      title: 'Finishing Started',
      description: 'The finished video appears here when it is ready. This one stays as it is.',
    },
    failed: 'Could Not Finish',
  });
  const offers = tools.data ? offeredActions(tools.data, video) : [];
  const actionOffer = offers.find((o) => o.action === action) ?? offers[0];
  if (!actionOffer) return null;
  const offer = actionOffer.options.find((o) => o.tool.id === toolIds[actionOffer.action]) ?? actionOffer.options[0];
  const form = fitForm(offer, {
    action: offer.action,
    resolution,
    fps,
    recording: recording.objectPath,
    picture: picture.objectPath,
    prompt: prompts[offer.action] ?? '',
  });
  const start = () => finish.mutate({ id: video.id, body: finishBody(offer, form) }, outcome);
  const button = finishButtonOf(video);
  const what = offers.map((o) => FINISH_ACTION_LABELS[o.action].toLowerCase()).join(', or ');
  return (
    <Dialog
      open={open && !recording.uploading && !picture.uploading}
      onOpenChange={(next) => !finish.isPending && setOpen(next)}
    >
      <DialogTrigger asChild>
        <Button variant={button.variant} title={`A finished copy of this video: ${what}`}>
          <Wand2 aria-hidden="true" /> {button.label}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90dvh] max-w-lg overflow-y-auto">
        <FinishFields
          video={video}
          offers={offers}
          actionOffer={actionOffer}
          offer={offer}
          form={form}
          onAction={setAction}
          onTool={(id) => setToolIds((ids) => ({ ...ids, [actionOffer.action]: id }))}
          onResolution={setResolution}
          onFps={setFps}
          onPrompt={(prompt) => setPrompts((all) => ({ ...all, [actionOffer.action]: prompt }))}
          recordingControl={recording.control}
          pictureControl={picture.control}
          pending={finish.isPending}
          onSubmit={start}
        />
      </DialogContent>
    </Dialog>
  );
}

interface FinishFieldsProps {
  video: GenerationRecord;
  offers: ActionOffer[];
  actionOffer: ActionOffer;
  offer: OfferedAction;
  form: FinishForm;
  onAction: (action: FinishAction) => void;
  onTool: (id: string) => void;
  onResolution: (resolution: UpscaleResolution | Keep) => void;
  onFps: (fps: number | Keep) => void;
  onPrompt: (prompt: string) => void;
  recordingControl: ReactNode;
  pictureControl: ReactNode;
  pending: boolean;
  onSubmit: () => void;
}

/** The dialog's form: the action, its tool in words, its choices, the price, and why it cannot start yet. */
function FinishFields({
  video,
  offers,
  actionOffer,
  offer,
  form,
  onAction,
  onTool,
  onResolution,
  onFps,
  onPrompt,
  recordingControl,
  pictureControl,
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
            layout="wrap"
          />
        </fieldset>
      ) : null}
      {actionOffer.options.length > 1 ? (
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm leading-none font-medium">Made by</legend>
          <ChoiceChips
            choices={actionOffer.options.map((o) => ({ value: o.tool.id, label: o.tool.name }))}
            value={offer.tool.id}
            onChange={onTool}
            label="Made by"
            layout="wrap"
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
        <FinishInputs
          offer={offer}
          prompt={form.prompt}
          onPrompt={onPrompt}
          recordingControl={recordingControl}
          pictureControl={pictureControl}
        />
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
