import { Link } from 'wouter';

import type { DraftChoice } from '../../../../shared/drafts';
import type { ModelInfo } from '../../../../shared/models';
import { formatCreditCount } from '../../../../shared/money/credits';
import type { ModelId } from '../../../../shared/money/pricing';
import { Badge } from '../../../components/ui/badge';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { useAuth } from '../../../lib/auth';
import { useModels } from '../api/get-models';
import { describeModel } from '../remix/model-fit';

interface ModelSelectProps {
  value: ModelId | null;
  onChange: (model: ModelId) => void;
  /** Draft is on: the model is Draft's choice, shown and not changeable. */
  isDraft?: boolean;
  /** The model and resolution Draft chose (null: no model takes the request). */
  draftChoice?: Pick<DraftChoice, 'model' | 'resolution'> | null;
}

const ENGINE_LABELS: Record<ModelInfo['engine'], string> = {
  local: 'This server',
  veo: 'Google Gemini API',
  kling: 'Kling AI',
  fal: 'fal.ai',
  replicate: 'Replicate',
  comfyui: 'Your GPU (ComfyUI)',
};

/**
 * The catalogue (GET /api/models): the models this server runs, with their prices. A customer sees
 * only those (a model they cannot use, and a reason about keys, means nothing to them); an
 * administrator also sees the others, each with what it needs, and where to connect it.
 */
export function ModelSelect({ value, onChange, isDraft = false, draftChoice = null }: ModelSelectProps) {
  const models = useModels();
  const isAdmin = useAuth().user?.isAdmin === true;
  const all = models.data ?? [];
  const available = all.filter((m) => m.available);
  const unavailable = isAdmin ? all.filter((m) => !m.available) : [];
  const list = [...available, ...unavailable];
  const selectedId = (isDraft ? draftChoice?.model.id : undefined) ?? value ?? list.find((m) => m.isDefault)?.id;
  const selected = list.find((m) => m.id === selectedId);
  return (
    <div className="grid gap-2">
      <Label htmlFor="model-select">Model</Label>
      {/* The browser's own list: a phone's native picker, and nothing to lay out while closed. */}
      <NativeSelect
        id="model-select"
        value={selectedId ?? ''}
        onChange={(event) => onChange(event.target.value)}
        disabled={list.length === 0 || isDraft}
        aria-describedby={isDraft && draftChoice ? 'model-draft-note' : undefined}
      >
        {list.length === 0 ? (
          <option value="">{models.isError ? 'Models are unavailable' : 'Loading models…'}</option>
        ) : null}
        <optgroup label="Available here">
          {available.map((model) => (
            <option key={model.id} value={model.id}>
              {model.name} · {formatCreditCount(model.credits)}
            </option>
          ))}
        </optgroup>
        {unavailable.length > 0 ? (
          <optgroup label="Not set up on this server">
            {unavailable.map((model) => (
              <option key={model.id} value={model.id} disabled>
                {model.name} (unavailable)
              </option>
            ))}
          </optgroup>
        ) : null}
      </NativeSelect>
      {isDraft && draftChoice ? (
        <p id="model-draft-note" className="text-sm font-medium text-violet-700 dark:text-violet-300">
          Draft: {draftChoice.model.name} at {draftChoice.resolution}
        </p>
      ) : null}
      {selected ? <ModelNote model={selected} /> : null}
      {unavailable.length > 0 ? (
        <details className="text-xs text-muted-foreground">
          <summary className="cursor-pointer py-1 font-medium">
            Why {unavailable.length === 1 ? '1 model is' : `${unavailable.length} models are`} unavailable
          </summary>
          <ul className="mt-1 grid gap-1">
            {unavailable.map((m) => (
              <li key={m.id}>
                <span className="font-medium">{m.name}:</span> {m.reason}
              </li>
            ))}
          </ul>
          <p className="mt-2">
            Only administrators see these.{' '}
            <Link href="/admin/settings" className="font-medium text-primary underline underline-offset-2">
              Connect a provider in Settings
            </Link>
            .
          </p>
        </details>
      ) : null}
    </div>
  );
}

function ModelNote({ model }: { model: ModelInfo }) {
  return (
    <div
      className="grid gap-1.5 rounded-lg border border-border p-3 text-sm text-muted-foreground"
      data-testid="model-note"
    >
      <p className="flex flex-wrap items-center gap-2">
        {model.isPreview ? <Badge tone="warning">Preview engine</Badge> : <Badge tone="brand">AI model</Badge>}
        <Badge>{ENGINE_LABELS[model.engine]}</Badge>
        <span className="font-medium text-foreground">
          {formatCreditCount(model.credits)} a video · {formatCreditCount(model.economyCredits)} in economy mode
        </span>
      </p>
      <p>{model.description}</p>
      <p className="text-xs">{describeModel(model)}</p>
    </div>
  );
}
