import type { ModelInfo } from '../../../../shared/generations';
import type { ModelId } from '../../../../shared/money/pricing';
import { Badge } from '../../../components/ui/badge';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { useModels } from '../api/get-models';

interface ModelSelectProps {
  value: ModelId | null;
  onChange: (model: ModelId) => void;
}

/** The models this server knows; the ones it cannot run are shown disabled with the reason. */
export function ModelSelect({ value, onChange }: ModelSelectProps) {
  const models = useModels();
  const list = models.data ?? [];
  const selectedId = value ?? list.find((m) => m.isDefault)?.id;
  const selected = list.find((m) => m.id === selectedId);
  return (
    <div className="grid gap-2">
      <Label htmlFor="model-select">Model</Label>
      <Select value={selectedId} onValueChange={(next) => onChange(next as ModelId)} disabled={list.length === 0}>
        <SelectTrigger id="model-select" aria-label="Model">
          <SelectValue placeholder={models.isError ? 'Models are unavailable' : 'Loading models…'} />
        </SelectTrigger>
        <SelectContent>
          {list.map((model) => (
            <SelectItem key={model.id} value={model.id} disabled={!model.available}>
              {model.name}
              {model.available ? '' : ' (unavailable)'}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {selected ? <ModelNote model={selected} /> : null}
      {list
        .filter((m) => !m.available)
        .map((m) => (
          <p key={m.id} className="text-xs text-muted-foreground">
            <span className="font-medium">{m.name}:</span> {m.reason}
          </p>
        ))}
    </div>
  );
}

function ModelNote({ model }: { model: ModelInfo }) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
      {model.isPreview ? <Badge tone="warning">Preview engine</Badge> : <Badge tone="brand">AI model</Badge>}
      <span>{model.description}</span>
    </p>
  );
}
