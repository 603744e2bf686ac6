import type { ComponentProps, MouseEvent } from 'react';

import { cn } from '../../lib/utils';

interface SwitchProps extends Omit<ComponentProps<'button'>, 'onChange' | 'type' | 'role'> {
  checked: boolean;
  onCheckedChange?: (checked: boolean) => void;
}

/**
 * An on/off switch: a button with the switch role (WAI-ARIA), so Space and Enter toggle it.
 * Not Radix Switch: inside a form Radix adds a hidden input sized by reading the button's layout in
 * an effect, which forced a layout of the whole page while it mounted (decision 013).
 */
export function Switch({ className, checked, onCheckedChange, onClick, ...props }: SwitchProps) {
  const state = checked ? 'checked' : 'unchecked';
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      data-state={state}
      className={cn(
        'peer inline-flex h-6 w-11 shrink-0 max-md:h-11 max-md:border-x-0 max-md:border-y-[10px] max-md:bg-clip-padding max-md:px-0.5 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-violet-600 data-[state=unchecked]:bg-muted-foreground/30',
        className,
      )}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        onClick?.(event);
        if (!event.defaultPrevented) onCheckedChange?.(!checked);
      }}
      {...props}
    >
      <span
        data-state={state}
        className="pointer-events-none block size-5 rounded-full bg-white shadow-md ring-0 transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0"
      />
    </button>
  );
}
