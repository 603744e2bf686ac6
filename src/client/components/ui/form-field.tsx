import { type ComponentProps, useId } from 'react';

import { Input } from './input';
import { Label } from './label';

type FormFieldProps = ComponentProps<'input'> & {
  label: string;
  name: string;
  hint?: string;
  optional?: boolean;
};

/** A labelled input; the hint, when given, is announced with it. */
export function FormField({ label, hint, optional = false, id, ...inputProps }: FormFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = `${inputId}-hint`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={inputId}>
        {label}
        {optional ? <span className="ml-1 font-normal text-muted-foreground">(optional)</span> : null}
      </Label>
      <Input id={inputId} aria-describedby={hint ? hintId : undefined} {...inputProps} />
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
