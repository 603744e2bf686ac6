import { type ComponentProps, type ReactNode, useId } from 'react';

import { Input } from './input';
import { Label } from './label';

type FormFieldProps = ComponentProps<'input'> & {
  label: string;
  name: string;
  hint?: string;
  optional?: boolean;
  /** A plain sentence shown beside the field when its value is wrong (announced with it). */
  error?: string | null;
  /** Something at the end of the label row (a 'Forgot password?' link). */
  labelAside?: ReactNode;
};

/** A labelled input; the hint and the error, when given, are announced with it. */
export function FormField({ label, hint, optional = false, error, labelAside, id, ...inputProps }: FormFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="grid gap-2">
      <div className="flex items-baseline justify-between gap-3">
        <Label htmlFor={inputId}>
          {label}
          {optional ? <span className="ml-1 font-normal text-muted-foreground">(optional)</span> : null}
        </Label>
        {labelAside}
      </div>
      <Input id={inputId} aria-describedby={describedBy} aria-invalid={error ? true : undefined} {...inputProps} />
      {error ? (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
