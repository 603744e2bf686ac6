import { ChevronDown } from 'lucide-react';

import type { ModelInfo } from '../../../../shared/models';
import { formatCreditCount } from '../../../../shared/money/credits';
import type { ModelId } from '../../../../shared/money/pricing';
import { Badge } from '../../../components/ui/badge';
import { Label } from '../../../components/ui/label';
import { useModels } from '../api/get-models';
import { describeModel } from '../remix/model-fit';

interface ModelSelectProps {
  value: ModelId | null;
  onChange: (model: ModelId) => void;
}

const ENGINE_LABELS: Record<ModelInfo['engine'], string> = {
  local: 'This server',
  veo: 'Google Gemini API',
  kling: 'Kling AI',
  fal: 'fal.ai',
  replicate: 'Replicate',
  comfyui: 'Your GPU (ComfyUI)',
};

/** The catalogue (GET /api/models): models this server runs first, with their prices; the others with the reason. */
export function ModelSelect({ value, onChange }: ModelSelectProps) {
  const models = useModels();
  const list = models.data ?? [];
  const available = list.filter((m) => m.available);
  const unavailable = list.filter((m) => !m.available);
  const selectedId = value ?? list.find((m) => m.isDefault)?.id;
  const selected = list.find((m) => m.id === selectedId);
  return (
    <div className="grid gap-2">
      <Label htmlFor="model-select">Model</Label>
      {/* The browser's own list: a phone's native picker, and nothing to lay out while closed. */}
      <div className="relative">
        <select
          id="model-select"
          value={selectedId ?? ''}
          onChange={(event) => onChange(event.target.value)}
          disabled={list.length === 0}
          className="h-10 w-full appearance-none truncate rounded-lg border border-input bg-background pr-9 pl-3 text-sm text-foreground shadow-sm outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 disabled:cursor-not-allowed disabled:opacity-50"
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
        </select>
        <ChevronDown
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 opacity-60"
        />
      </div>
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
