import { useId } from 'react';
import { cn } from '../../lib/utils';

export interface Choice<T> {
  value: T;
  label: string;
  /** What a screen reader says, where the label alone is too terse ('2' → '2 variations'). */
  ariaLabel?: string;
}

interface ChoiceChipsProps<T> {
  choices: readonly Choice<T>[];
  value: T;
  onChange: (value: T) => void;
  /** The group's name where no fieldset's legend gives it: the id of a visible label, or the words. */
  labelledBy?: string;
  label?: string;
  /** 'grid': equal columns across the width; 'wrap': chips as wide as their words, wrapping. */
  layout?: 'grid' | 'wrap';
  /** Shown but not changeable (the choice is made elsewhere, e.g. by Draft). */
  disabled?: boolean;
}

/**
 * A row of chips of which one is chosen: native radio buttons drawn as chips, so the browser gives
 * them one tab stop and arrow keys. 44 px tall on phones, 40 px from `sm` up.
 */
export function ChoiceChips<T extends string | number>({
  choices,
  value,
  onChange,
  labelledBy,
  label,
  layout = 'grid',
  disabled = false,
}: ChoiceChipsProps<T>) {
  const name = useId();
  return (
    <div
      role="radiogroup"
      aria-labelledby={labelledBy}
      aria-label={labelledBy ? undefined : label}
      className={layout === 'grid' ? 'grid gap-1.5' : 'flex flex-wrap gap-2'}
      style={layout === 'grid' ? { gridTemplateColumns: `repeat(${choices.length}, minmax(0, 1fr))` } : undefined}
    >
      {choices.map((choice) => (
        <label key={choice.value} className={disabled ? 'cursor-not-allowed' : 'cursor-pointer'}>
          <input
            type="radio"
            name={name}
            value={String(choice.value)}
            checked={choice.value === value}
            onChange={() => onChange(choice.value)}
            disabled={disabled}
            aria-label={choice.ariaLabel}
            className="peer sr-only"
          />
          <span
            className={cn(
              'inline-flex h-11 w-full items-center justify-center rounded-lg border border-input bg-background text-sm font-medium tabular-nums shadow-sm transition-colors sm:h-10',
              'peer-checked:border-violet-600 peer-checked:bg-violet-600 peer-checked:text-white peer-focus-visible:ring-2 peer-focus-visible:ring-ring/50 hover:bg-accent peer-checked:hover:bg-violet-600',
              layout === 'wrap' && 'min-w-12 px-3',
              // Locked: the chosen chip as it is, the others greyed, nothing lighting up under the pointer.
              disabled && 'text-muted-foreground hover:bg-background',
            )}
          >
            {choice.label}
          </span>
        </label>
      ))}
    </div>
  );
}
