import { AudioLines, Settings2, Sparkles, TriangleAlert, Wand2 } from 'lucide-react';
import { formatCreditCount } from '../../../../shared/money/credits';
import type { FormEvent, ReactNode } from 'react';

import { MAX_PROMPT_LENGTH, parseAdvancedSettings } from '../../../../shared/generations';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Switch } from '../../../components/ui/switch';
import { Textarea } from '../../../components/ui/textarea';
import type { useGeneratorForm } from '../hooks/use-generator-form';
import { useModels } from '../api/get-models';
import { ModelSelect } from './model-select';

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
}

const JSON_PLACEHOLDER = '{\n  "aspectRatio": "16:9",\n  "negativePrompt": "blurry, low quality",\n  "seed": 42\n}';

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
}: GenerationFormProps) {
  const { state } = form;
  const models = useModels();
  const model = models.data?.find((m) => (state.model ? m.id === state.model : m.isDefault));
  // The catalogue's economy price of the chosen model (the local engine also renders 480p then).
  const economyNote = model
    ? `${model.isPreview ? '480p for ' : ''}${formatCreditCount(model.economyCredits)} instead of ${formatCreditCount(model.credits)}.`
    : '480p for half a credit.';
  const insufficient = !allowanceNote && typeof credits === 'number' && credits < cost;
  const settings = parseAdvancedSettings(state.advancedSettings);
  const disabled = pending || credits === undefined || !state.description.trim() || insufficient || Boolean(problem);
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
            placeholder="A slow zoom in on a lighthouse at sunset, waves crashing, warm golden light"
          />
          <p className="text-right text-xs text-muted-foreground tabular-nums">
            {state.description.length}/{MAX_PROMPT_LENGTH}
          </p>
          {descriptionAddon}
        </CardContent>
      </Card>

      <Card data-tour="audio">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <AudioLines aria-hidden="true" className="size-5 text-violet-600 dark:text-violet-400" /> Audio Settings
          </CardTitle>
          <CardDescription>Turns on by itself when your description mentions music, a voice or sound.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="flex items-center justify-between gap-3 rounded-lg border border-border p-3">
            <Label htmlFor="audio-switch" className="grid gap-0.5">
              <span>{state.audioEnabled ? 'Audio Enabled' : 'Silent Video'}</span>
              <span className="text-xs font-normal text-muted-foreground">
                {state.audioEnabled ? 'Your video gets a soundtrack (+2 credits).' : 'No sound track in the video.'}
              </span>
            </Label>
            <Switch
              id="audio-switch"
              checked={state.audioEnabled}
              onCheckedChange={form.setAudioEnabled}
              aria-label="Audio"
            />
          </div>
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
                placeholder="Soft piano, distant seagulls"
                maxLength={300}
              />
            </div>
          ) : null}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Settings2 aria-hidden="true" className="size-5 text-violet-600 dark:text-violet-400" /> Advanced Settings
          </CardTitle>
          <CardDescription>Choose the model, and optionally fine-tune with JSON.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <ModelSelect value={state.model} onChange={form.setModel} />
          <div className="flex items-center justify-between gap-3 rounded-lg border border-border p-3">
            <Label htmlFor="economy-switch" className="grid gap-0.5">
              <span>Economy mode</span>
              <span className="text-xs font-normal text-muted-foreground">{economyNote}</span>
            </Label>
            <Switch
              id="economy-switch"
              checked={state.isEconomy}
              onCheckedChange={form.setEconomy}
              aria-label="Economy mode"
            />
          </div>
          <div className="grid gap-2" data-tour="advanced-json">
            <Label htmlFor="advanced-settings">Advanced settings (JSON)</Label>
            <Textarea
              id="advanced-settings"
              rows={5}
              spellCheck={false}
              className="font-mono text-xs sm:text-xs"
              value={state.advancedSettings}
              onChange={(event) => form.setAdvancedSettings(event.target.value)}
              placeholder={JSON_PLACEHOLDER}
            />
            <p className={settings.ok ? 'text-xs text-muted-foreground' : 'text-xs text-destructive'}>
              {settings.ok
                ? 'Known keys: aspectRatio (16:9, 9:16, 1:1), negativePrompt, seed, resolution (480p, 720p, 1080p).'
                : settings.message}
            </p>
          </div>
        </CardContent>
      </Card>

      <Card className="border-violet-500/30">
        <CardContent className="grid gap-4 pt-6">
          <div className="flex items-baseline justify-between gap-3">
            <span className="text-sm text-muted-foreground">Cost of this video</span>
            <span className="text-lg font-semibold tabular-nums">
              {credits === null ? 'Included (unlimited)' : allowanceNote ? '1 generation' : formatCreditCount(cost)}
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
            <p
              role="alert"
              className="flex items-start gap-2 rounded-lg bg-destructive/10 p-3 text-sm font-medium text-destructive"
            >
              <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              Insufficient credits. You need {cost} but have {credits}.
            </p>
          ) : null}
          <Button type="submit" variant="brand" size="lg" disabled={disabled} className="w-full" data-tour="generate">
            <Sparkles aria-hidden="true" /> {pending ? 'Processing...' : 'Generate Video'}
          </Button>
        </CardContent>
      </Card>
    </form>
  );
}
