import { ChevronsRight } from 'lucide-react';
import { type FormEvent, useState } from 'react';

import { type GenerationRecord, MAX_PROMPT_LENGTH } from '../../../../shared/generations';
import { formatCreditCount, toCredits } from '../../../../shared/money/credits';
import { modelPriceOf, priceHundredths } from '../../../../shared/money/pricing';
import { type ModelInfo, nearestOf } from '../../../../shared/models';
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
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { useNewVideoOutcome } from '../../../lib/new-video';
import { useExtendGeneration } from '../api/extend-generation';

/** The crossfades offered between the video and its continuation, in seconds (0: a straight cut). */
export const CROSSFADE_CHOICES = [0, 0.25, 0.5, 1] as const;
/** The continuation's length the dialog starts with (the model's nearest). */
const DEFAULT_EXTEND_SECONDS = 5;

/** The length the extended video will have: this one plus the continuation, less the crossfade. */
export function extendedLength(current: number, added: number, crossfade: number): number {
  return Math.round((current + added - crossfade) * 10) / 10;
}

interface ExtendDialogProps {
  video: GenerationRecord;
  /** The video's model from the catalogue (its durations and price); undefined while it loads. */
  model: ModelInfo | undefined;
}

/**
 * Extend: makes a continuation of a finished video from its last frame and joins the two into one
 * longer video (a new record that names this one). An optional prompt for what happens next, the
 * continuation's length from what the model renders, and an optional short crossfade; priced as
 * the continuation before the click.
 */
export function ExtendDialog({ video, model }: ExtendDialogProps) {
  const [open, setOpen] = useState(false);
  const [prompt, setPrompt] = useState('');
  const durations = model?.durations ?? [DEFAULT_EXTEND_SECONDS];
  const [seconds, setSeconds] = useState(() => nearestOf(durations, DEFAULT_EXTEND_SECONDS));
  const [crossfade, setCrossfade] = useState<number>(0);
  const extend = useExtendGeneration();
  const outcome = useNewVideoOutcome(() => setOpen(false), {
    started: {
      title: 'Extending Your Video',
      description: 'The longer video appears here when its new part is made and joined.',
    },
    failed: 'Could Not Extend',
  });
  const price = priceHundredths(
    {
      hasAudio: video.hasAudio,
      isEconomy: video.isEconomy ?? false,
      hasPromptEnhancement: false,
      hasImageAnalysis: false,
    },
    model && modelPriceOf(model),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    extend.mutate({ id: video.id, body: { prompt: prompt.trim() || null, duration: seconds, crossfade } }, outcome);
  };
  const ready = video.status === 'completed' && video.outputVideoUrl !== null;
  return (
    <Dialog open={open} onOpenChange={(next) => !extend.isPending && setOpen(next)}>
      <DialogTrigger asChild>
        <Button variant="outline" disabled={!ready} title="Make this video longer: continue it and join the two">
          <ChevronsRight aria-hidden="true" /> Extend
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-lg">
        <form onSubmit={submit} className="grid gap-5" aria-label="Extend this video">
          <div className="grid gap-1.5">
            <DialogTitle>Extend this video</DialogTitle>
            <DialogDescription>
              A new part starts from the last frame and is joined on, so you get one longer video. This video stays as
              it is.
            </DialogDescription>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="extend-prompt">What happens next (optional)</Label>
            <Textarea
              id="extend-prompt"
              rows={3}
              value={prompt}
              maxLength={MAX_PROMPT_LENGTH}
              onChange={(event) => setPrompt(event.target.value)}
              placeholder="For example: the camera rises above the clouds"
            />
            <p className="text-xs break-words text-muted-foreground">
              Left empty, the new part follows this video’s prompt: “{video.prompt}”
            </p>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor="extend-duration">Add</Label>
              <select
                id="extend-duration"
                value={seconds}
                onChange={(event) => setSeconds(Number(event.target.value))}
                className="h-10 w-full rounded-lg border border-input bg-background px-3 text-sm shadow-sm outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30"
              >
                {durations.map((d) => (
                  <option key={d} value={d}>
                    {d} seconds
                  </option>
                ))}
              </select>
            </div>
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm leading-none font-medium">Crossfade</legend>
              <ChoiceChips
                choices={CROSSFADE_CHOICES.map((choice) => ({
                  value: choice,
                  label: choice === 0 ? 'None' : `${choice} s`,
                }))}
                value={crossfade}
                onChange={setCrossfade}
                label="Crossfade"
              />
            </fieldset>
          </div>
          <div className="grid gap-1 rounded-lg bg-muted p-3 text-sm">
            <div className="flex items-baseline justify-between gap-3">
              <span className="text-muted-foreground">New length</span>
              <span className="font-medium tabular-nums" data-testid="extend-length">
                about {extendedLength(video.duration, seconds, crossfade)} s
              </span>
            </div>
            <div className="flex items-baseline justify-between gap-3">
              <span className="text-muted-foreground">Cost (the new part)</span>
              <span className="font-semibold tabular-nums" data-testid="extend-cost">
                {formatCreditCount(toCredits(price.total))}
              </span>
            </div>
          </div>
          <div className="grid grid-cols-2 gap-2 sm:flex sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={extend.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant="brand" disabled={extend.isPending}>
              <ChevronsRight aria-hidden="true" /> {extend.isPending ? 'Starting...' : 'Extend Video'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
