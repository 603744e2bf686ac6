import type { ModelInfo } from '../../../../shared/models';
import { formatCreditCount } from '../../../../shared/money/credits';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';

interface CompareModelPickerProps {
  /** The other models that can take this request (compareCandidates). */
  candidates: ModelInfo[];
  value: string | null;
  onChange: (id: string | null) => void;
  /** Each model's name and price in credits while comparing (null: not shown, e.g. unlimited). */
  prices: { name: string; cost: number }[] | null;
}

/**
 * Compare with another model: the same request made on a second model too, side by side on the
 * media page, each at its own model's price (the sum shown here is the sum charged).
 */
export function CompareModelPicker({ candidates, value, onChange, prices }: CompareModelPickerProps) {
  if (candidates.length === 0) return null;
  return (
    <div className="grid gap-2">
      <Label htmlFor="compare-model-select">Compare with another model</Label>
      <NativeSelect
        id="compare-model-select"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
      >
        <option value="">No, one model</option>
        {candidates.map((model) => (
          <option key={model.id} value={model.id}>
            {model.name}
          </option>
        ))}
      </NativeSelect>
      {value && prices ? (
        <p className="text-xs text-muted-foreground tabular-nums" data-testid="compare-price">
          {prices.map((p) => `${p.name} ${formatCreditCount(p.cost)}`).join(' + ')} ={' '}
          {formatCreditCount(prices.reduce((sum, p) => sum + p.cost, 0))}
        </p>
      ) : value ? (
        <p className="text-xs text-muted-foreground">One video on each model, side by side.</p>
      ) : null}
    </div>
  );
}
