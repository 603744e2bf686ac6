import { AudioLines, Coins, Sparkles, TriangleAlert, Wand2 } from 'lucide-react';
import { formatCreditCount } from '../../../../shared/money/credits';
import { type FormEvent, type ReactNode, useRef } from 'react';

import type { DraftChoice } from '../../../../shared/drafts';
import { MAX_PROMPT_LENGTH } from '../../../../shared/generations';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { SwitchField } from '../../../components/ui/switch-field';
import { Textarea } from '../../../components/ui/textarea';
import type { useGeneratorForm } from '../hooks/use-generator-form';
import type { FittedControls } from '../controls/video-controls';
import { AdvancedSettingsCard } from './advanced-settings-card';
import { PhoneGenerateBar, type PhoneGenerateStep } from './phone-generate-bar';
import { VariationsPicker } from './variations-picker';

interface GenerationFormProps {
  form: ReturnType<typeof useGeneratorForm>;
  /** The cost of this video in credits, and the user's balance (null: unlimited; undefined: loading). */
  cost: number;
  credits: number | null | undefined;
  /** Set when a daily or extra generation pays for this video: no credit check, and this line says so. */
  allowanceNote?: string | null;
  pending: boolean;
  onGenerate: () => void;
  /** Where the AI Enhance toggle and the enhanced-prompt panel go (AI assist). */
  descriptionAddon?: ReactNode;
  /** Why the chosen model cannot take this request (an input it does not take): shown, and Generate waits. */
  problem?: string | null;
  /** Variations: how many videos Generate makes (`cost` is already for all of them), and its picker's change. */
  variations?: number;
  onVariationsChange?: (count: number) => void;
  /** Compare with another model: its picker, and then Generate makes two videos (`cost` is for both). */
  compare?: ReactNode;
  /** A character of the user's library (the characters feature's picker), under the model it goes to. */
  character?: ReactNode;
  comparing?: boolean;
  /** The shape, length and camera the video is rendered at on the chosen model (null until the catalogue arrives). */
  fitted?: FittedControls | null;
  /** While Draft is on: the model and resolution the draft is made on (null when no model takes the request). */
  draft?: DraftChoice | null;
  /** The Draft switch (the page also drops a comparison when it goes on); the form's own setter otherwise. */
  onDraftChange?: (isDraft: boolean) => void;
  /** When the price is over the balance but the video without its AI add-ons fits: that video, one click away. */
  withoutAddOns?: {
    cost: number;
    onGenerate: () => void;
    /** Set when the words it sends are not the description shown (after 'Use Enhanced'): said under the button. */
    ownWords?: string;
  } | null;
  /**
   * When the price is over the balance but the same video in economy mode fits (add-ons kept): the
   * switch to economy, offered beside the shortfall. Generate is then the next step.
   */
  economyPath?: { cost: number; resolution: string; onSwitch: () => void } | null;
  /** Shown with 'Insufficient credits': how to get more here (or who to ask). */
  shortfallHelp?: ReactNode;
  /** The confirmation a picture showing a person needs, just above Generate (once the server asked for it). */
  consent?: ReactNode;
}

/** Description, audio, advanced settings, model, cost summary and the Generate button. */
export function GenerationForm({
  form,
  cost,
  credits,
  allowanceNote,
  pending,
  onGenerate,
  descriptionAddon,
  problem,
  variations = 1,
  onVariationsChange,
  compare,
  character,
  comparing = false,
  fitted,
  draft = null,
  onDraftChange,
  withoutAddOns,
  economyPath,
  shortfallHelp,
  consent,
}: GenerationFormProps) {
  const { state } = form;
  // How many videos Generate makes: the variations, or one on each of two models.
  const videos = comparing ? 2 : variations;
  const insufficient = !allowanceNote && typeof credits === 'number' && credits < cost;
  const disabled = pending || credits === undefined || !state.description.trim() || insufficient || Boolean(problem);
  const generateButton = useRef<HTMLButtonElement>(null);
  // Why Generate waits, in words, under it (the spec's sentence for an empty description); the
  // shortfall and a model's refusal say it in their own notices above.
  const waitingFor = pending
    ? null
    : credits === undefined
      ? 'Loading your balance…'
      : !state.description.trim()
        ? 'Please provide a text description'
        : null;
  const price = credits === null ? 'Included (unlimited)' : allowanceNote ? allowanceNote : formatCreditCount(cost);
  const phoneStep: PhoneGenerateStep | null = pending
    ? null
    : !state.description.trim()
      ? { kind: 'describe' }
      : !disabled
        ? { kind: 'generate', price }
        : insufficient
          ? { kind: 'review', reason: `Need ${cost} credits. You have ${credits}.` }
          : problem
            ? { kind: 'review', reason: problem }
            : null;
  const describe = () => {
    const box = document.getElementById('video-description');
    box?.scrollIntoView({ behavior: 'smooth', block: 'center' });
    box?.focus({ preventScroll: true });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!disabled) onGenerate();
  };
  return (
    <form onSubmit={submit} className="grid gap-6" aria-label="Create a video">
      <Card data-tour="description">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Wand2 aria-hidden="true" className="size-5 text-violet-600 dark:text-violet-400" /> Video Description
          </CardTitle>
          <CardDescription className="hidden sm:block">
            Describe the scene, the motion and the mood. Words like zoom in, pan left or black and white shape the
            result.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <Label htmlFor="video-description" className="sr-only">
            Video Description
          </Label>
          <Textarea
            id="video-description"
            value={state.description}
            onChange={(event) => form.setDescription(event.target.value)}
            maxLength={MAX_PROMPT_LENGTH}
            rows={5}
            placeholder="For example: a slow zoom in on a lighthouse at sunset, waves crashing, warm golden light"
          />
          <p className="text-right text-xs text-muted-foreground tabular-nums">
            {state.description.length}/{MAX_PROMPT_LENGTH}
          </p>
          {descriptionAddon}
        </CardContent>
      </Card>

      <Card data-tour="audio" className="render-when-near">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <AudioLines aria-hidden="true" className="size-5 text-violet-600 dark:text-violet-400" /> Audio Settings
          </CardTitle>
          <CardDescription>Turns on by itself when your description mentions music, a voice or sound.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <SwitchField
            id="audio-switch"
            name="Audio"
            label={state.audioEnabled ? 'Audio Enabled' : 'Silent Video'}
            hint={state.audioEnabled ? 'Your video gets a soundtrack (+2 credits).' : 'No sound track in the video.'}
            checked={state.audioEnabled}
            onCheckedChange={form.setAudioEnabled}
          />
          {/* Why the price changed when the description's words switched audio on (decision 012). */}
          <p
            role="status"
            data-testid="audio-notice"
            className={state.audioNotice ? 'text-xs font-medium text-amber-700 dark:text-amber-300' : 'sr-only'}
          >
            {state.audioNotice ?? ''}
          </p>
          {state.audioEnabled ? (
            <div className="grid gap-2">
              <Label htmlFor="audio-description">Audio description (optional)</Label>
              <Textarea
                id="audio-description"
                rows={2}
                value={state.audioDescription}
                onChange={(event) => form.setAudioDescription(event.target.value)}
                placeholder="For example: soft piano, distant seagulls"
                maxLength={300}
              />
            </div>
          ) : null}
        </CardContent>
      </Card>

      <AdvancedSettingsCard
        form={form}
        fitted={fitted}
        draft={draft}
        onDraftChange={onDraftChange}
        character={character}
      />

      <Card className="border-violet-500/30">
        <CardContent className="grid gap-4 pt-6">
          {compare}
          {onVariationsChange ? (
            <VariationsPicker
              value={variations}
              onChange={onVariationsChange}
              unitCost={credits === null || allowanceNote || comparing ? null : cost / variations}
            />
          ) : null}
          <div className="flex items-baseline justify-between gap-3">
            <span className="text-sm text-muted-foreground">
              {videos > 1 ? `Cost of ${videos} videos` : 'Cost of this video'}
            </span>
            <span className="text-lg font-semibold tabular-nums">
              {credits === null
                ? 'Included (unlimited)'
                : allowanceNote
                  ? videos > 1
                    ? `${videos} generations`
                    : '1 generation'
                  : formatCreditCount(cost)}
            </span>
          </div>
          {allowanceNote ? <p className="text-sm text-emerald-700 dark:text-emerald-300">{allowanceNote}</p> : null}
          {problem ? (
            <p
              role="alert"
              className="flex items-start gap-2 rounded-lg bg-destructive/10 p-3 text-sm font-medium text-destructive"
            >
              <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              {problem}
            </p>
          ) : null}
          {insufficient ? (
            <div role="alert" className="grid gap-3 rounded-lg bg-destructive/10 p-3 text-sm font-medium">
              <p className="flex items-start gap-2 text-destructive">
                <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                Insufficient credits. You need {cost} but have {credits}.
              </p>
              {shortfallHelp}
            </div>
          ) : null}
          {insufficient && economyPath && !pending && !problem ? (
            <Button
              type="button"
              variant="brand"
              size="lg"
              className="h-auto min-h-12 w-full py-2 whitespace-normal"
              onClick={economyPath.onSwitch}
            >
              <Coins aria-hidden="true" /> Switch to Economy ({economyPath.resolution},{' '}
              {formatCreditCount(economyPath.cost)})
            </Button>
          ) : null}
          {insufficient && withoutAddOns && !pending && !problem && state.description.trim() ? (
            <Button
              type="button"
              variant={economyPath ? 'outline' : 'brand'}
              size="lg"
              // Wraps on a phone instead of widening the page.
              className="h-auto min-h-12 w-full py-2 whitespace-normal"
              onClick={withoutAddOns.onGenerate}
            >
              <Sparkles aria-hidden="true" /> Generate without the add-ons ({formatCreditCount(withoutAddOns.cost)})
            </Button>
          ) : null}
          {insufficient && withoutAddOns?.ownWords && !pending && !problem ? (
            <p className="-mt-2 text-xs break-words text-muted-foreground">
              Made from your own description: “{withoutAddOns.ownWords}”
            </p>
          ) : null}
          {consent}
          {/* Short of credits, Generate is drawn plain: the bright button is the step the user can take. */}
          <Button
            ref={generateButton}
            type="submit"
            variant={insufficient ? 'outline' : 'brand'}
            size="lg"
            disabled={disabled}
            className="w-full"
            data-tour="generate"
            aria-describedby={waitingFor ? 'generate-waiting-for' : undefined}
          >
            <Sparkles aria-hidden="true" />{' '}
            {pending ? 'Processing...' : videos > 1 ? `Generate ${videos} Videos` : 'Generate Video'}
          </Button>
          {waitingFor ? (
            <p id="generate-waiting-for" className="-mt-2 text-center text-sm text-muted-foreground">
              {waitingFor === 'Please provide a text description' ? (
                <button
                  type="button"
                  className="min-h-11 underline underline-offset-2 hover:text-foreground"
                  onClick={describe}
                >
                  {waitingFor}
                </button>
              ) : (
                waitingFor
              )}
            </p>
          ) : null}
        </CardContent>
      </Card>
      <PhoneGenerateBar generateButton={generateButton} step={phoneStep} onDescribe={describe} />
    </form>
  );
}
