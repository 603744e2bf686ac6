import type { ReactNode } from 'react';

import { Label } from './label';
import { Switch } from './switch';

interface SwitchFieldProps {
  id: string;
  /** The switch's name for a screen reader and for speech, whatever the label says of its state. */
  name: string;
  /** The visible label and its one-line hint. */
  label: ReactNode;
  hint: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}

/** A switch in a bordered row, with its label and a one-line hint beside it: the form's on/off choices. */
export function SwitchField({ id, name, label, hint, checked, onCheckedChange }: SwitchFieldProps) {
  return (
    <div className="flex items-center justify-between gap-3 rounded-lg border border-border p-3">
      <Label htmlFor={id} className="grid gap-0.5">
        <span>{label}</span>
        <span className="text-xs font-normal text-muted-foreground">{hint}</span>
      </Label>
      <Switch id={id} checked={checked} onCheckedChange={onCheckedChange} aria-label={name} />
    </div>
  );
}
