import { MAX_VARIATIONS } from '../../../../shared/generations';
import { formatCreditCount } from '../../../../shared/money/credits';
import { ChoiceChips } from '../../../components/ui/choice-chips';

const CHOICES = Array.from({ length: MAX_VARIATIONS }, (_, i) => {
  const count = i + 1;
  return { value: count, label: String(count), ariaLabel: count === 1 ? '1 video' : `${count} variations` };
});

interface VariationsPickerProps {
  value: number;
  onChange: (count: number) => void;
  /** The price of one video in credits (null: unlimited; a daily or extra generation pays otherwise). */
  unitCost: number | null;
}

/** How many variations Generate makes (1 to 4, each with its own seed), with the price of one times that. */
export function VariationsPicker({ value, onChange, unitCost }: VariationsPickerProps) {
  return (
    <div className="grid gap-2">
      <div className="flex items-baseline justify-between gap-3">
        <span id="variations-label" className="text-sm font-medium">
          Variations
        </span>
        {unitCost !== null && value > 1 ? (
          <span className="text-xs text-muted-foreground tabular-nums" data-testid="variations-price">
            {value} × {formatCreditCount(unitCost)} = {formatCreditCount(unitCost * value)}
          </span>
        ) : (
          <span className="text-xs text-muted-foreground">Each with its own seed</span>
        )}
      </div>
      <ChoiceChips choices={CHOICES} value={value} onChange={onChange} labelledBy="variations-label" />
    </div>
  );
}
