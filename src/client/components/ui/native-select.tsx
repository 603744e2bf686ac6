import { ChevronDown } from 'lucide-react';
import type { ComponentProps } from 'react';

import { cn } from '../../lib/utils';

/**
 * The browser's own list, styled as the app's fields: a phone's native picker, and nothing to lay
 * out while closed. The chevron is drawn over its right edge.
 */
export function NativeSelect({ className, children, ...props }: ComponentProps<'select'>) {
  return (
    <div className="relative">
      <select
        className={cn(
          'h-10 w-full appearance-none truncate rounded-lg border border-input bg-background pr-9 pl-3 text-sm text-foreground shadow-sm outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 disabled:cursor-not-allowed disabled:opacity-50',
          className,
        )}
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 opacity-60"
      />
    </div>
  );
}
