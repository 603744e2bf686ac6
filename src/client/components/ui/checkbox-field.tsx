import { type ReactNode, useId } from 'react';

import { cn } from '../../lib/utils';

interface CheckboxFieldProps {
  /** What ticking the box means; its accessible name, with the description. */
  label: ReactNode;
  /** A line under the label saying what it does (inside the label, so pressing it ticks the box too). */
  description?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  /** The input's id; a generated one otherwise. */
  id?: string;
  /** The input's name, for a form read as a whole. */
  name?: string;
}

/**
 * A native checkbox with its label (and a description under it), the label pressable as the box is:
 * together they are 44 px tall on a phone and 32 px from 768 px up, like the other targets.
 */
export function CheckboxField({
  label,
  description,
  checked,
  onCheckedChange,
  disabled,
  id,
  name,
}: CheckboxFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  return (
    <label
      htmlFor={inputId}
      className={cn('flex min-h-8 gap-3 text-sm max-md:min-h-11', description ? 'items-start' : 'items-center')}
    >
      <input
        id={inputId}
        type="checkbox"
        name={name}
        className={cn('size-4 shrink-0 accent-primary', description ? 'mt-0.5' : null)}
        checked={checked}
        disabled={disabled}
        onChange={(event) => onCheckedChange(event.target.checked)}
      />
      <span>
        {label}
        {description ? <span className="block text-xs text-muted-foreground">{description}</span> : null}
      </span>
    </label>
  );
}
