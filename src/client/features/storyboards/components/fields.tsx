import { type ReactNode, useId, useState } from 'react';

import { NativeSelect } from '../../../components/ui/native-select';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { cn } from '../../../lib/utils';

// The board editor's small fields: the browser's own select (a phone's native picker), and a number
// that may be left empty.

export interface Option<T extends string | number> {
  value: T;
  label: string;
}

export function SelectField<T extends string | number>({
  label,
  value,
  options,
  onChange,
  disabled,
  className,
}: {
  label: string;
  value: T;
  options: readonly Option<T>[];
  onChange: (value: T) => void;
  disabled?: boolean;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={cn('grid min-w-0 content-start gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect
        id={id}
        value={String(value)}
        disabled={disabled}
        onChange={(event) => {
          const chosen = options.find((option) => String(option.value) === event.target.value);
          if (chosen) onChange(chosen.value);
        }}
        className="h-11 sm:h-10"
      >
        {options.map((option) => (
          <option key={option.value} value={String(option.value)}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

/**
 * Seconds, or nothing: the text is kept as typed ('1.' on the way to '1.5') and the number sent
 * once it reads as one in range; empty means none.
 */
export function SecondsField({
  label,
  value,
  onChange,
  min,
  max,
  placeholder,
  hint,
}: {
  label: string;
  value: number | null;
  onChange: (value: number | null) => void;
  min: number;
  max: number;
  placeholder?: string;
  hint?: ReactNode;
}) {
  const id = useId();
  const [text, setText] = useState(value === null ? '' : String(value));
  const [shown, setShown] = useState(value);
  // A value changed from elsewhere (the server's board) replaces the text.
  if (shown !== value) {
    setShown(value);
    if (Number(text) !== value) setText(value === null ? '' : String(value));
  }
  const number = Number(text);
  const invalid = text.trim() !== '' && (!Number.isFinite(number) || number < min || number > max);
  return (
    <div className="grid min-w-0 content-start gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        inputMode="decimal"
        value={text}
        placeholder={placeholder}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid || hint ? `${id}-hint` : undefined}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          const parsed = Number(next.replace(',', '.'));
          if (next.trim() === '') {
            setShown(null);
            onChange(null);
          } else if (Number.isFinite(parsed) && parsed >= min && parsed <= max) {
            setShown(parsed);
            onChange(parsed);
          }
        }}
      />
      {invalid || hint ? (
        <p id={`${id}-hint`} className={cn('text-xs', invalid ? 'text-destructive' : 'text-muted-foreground')}>
          {invalid ? `A number of seconds from ${min} to ${max}.` : hint}
        </p>
      ) : null}
    </div>
  );
}
