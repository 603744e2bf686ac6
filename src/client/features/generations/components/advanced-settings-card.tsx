import { Settings2 } from 'lucide-react';
import type { ReactNode } from 'react';

import type { DraftChoice } from '../../../../shared/drafts';
import { parseAdvancedSettings } from '../../../../shared/generations';
import { chosenModel } from '../../../../shared/models';
import { formatCreditCount } from '../../../../shared/money/credits';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { SwitchField } from '../../../components/ui/switch-field';
import { Textarea } from '../../../components/ui/textarea';
import { useModels } from '../api/get-models';
import type { FittedControls } from '../controls/video-controls';
import type { useGeneratorForm } from '../hooks/use-generator-form';
import { ModelSelect } from './model-select';
import { ShapeControls } from './shape-controls';

interface AdvancedSettingsCardProps {
  form: ReturnType<typeof useGeneratorForm>;
  /** The shape, length and camera the video is rendered at on its model (null until the catalogue arrives). */
  fitted?: FittedControls | null;
  /** While Draft is on: the model and resolution the draft is made on (null when no model takes the request). */
  draft: DraftChoice | null;
  /** The Draft switch (the page also drops a comparison when it goes on); the form's own setter otherwise. */
  onDraftChange?: (isDraft: boolean) => void;
  /** A character of the user's library (the characters feature's picker), under the model it goes to. */
  character?: ReactNode;
}

const JSON_PLACEHOLDER = 'For example:\n{ "negativePrompt": "blurry, low quality", "seed": 42 }';

/** Draft, the model, the video's shape and camera, a character, Economy and the settings JSON. */
export function AdvancedSettingsCard({ form, fitted, draft, onDraftChange, character }: AdvancedSettingsCardProps) {
  const { state } = form;
  const models = useModels();
  // The model the video is made on: Draft's choice while Draft is on, else the one chosen.
  const model = (state.isDraft ? draft?.model : undefined) ?? chosenModel(models.data, state.model);
  // The catalogue's economy price of that model (the local engine also renders 480p then).
  const economyNote = model
    ? `${model.isPreview && !state.controls.resolution ? '480p for ' : ''}${formatCreditCount(model.economyCredits)} instead of ${formatCreditCount(model.credits)}.`
    : '480p for half a credit.';
  const settings = parseAdvancedSettings(state.advancedSettings);
  return (
    <Card className="render-when-near">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Settings2 aria-hidden="true" className="size-5 text-violet-600 dark:text-violet-400" /> Advanced Settings
        </CardTitle>
        <CardDescription>
          Choose the model, the video's shape and camera, and optionally fine-tune with JSON.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <SwitchField
          id="draft-switch"
          name="Draft"
          label="Draft"
          hint="Try it cheaply: the cheapest model and resolution. Finish the take you like."
          checked={state.isDraft}
          onCheckedChange={onDraftChange ?? form.setDraft}
        />
        <ModelSelect value={state.model} onChange={form.setModel} isDraft={state.isDraft} draftChoice={draft} />
        {model && fitted ? (
          <ShapeControls
            model={model}
            value={fitted}
            onChange={form.setControls}
            resolutionLocked={state.isDraft && draft !== null}
          />
        ) : null}
        {character}
        <SwitchField
          id="economy-switch"
          name="Economy mode"
          label="Economy mode"
          hint={economyNote}
          checked={state.isEconomy}
          onCheckedChange={form.setEconomy}
        />
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
              ? 'Known keys: negativePrompt, seed. Shape and camera are the choices above.'
              : settings.message}
          </p>
        </div>
      </CardContent>
    </Card>
  );
}
