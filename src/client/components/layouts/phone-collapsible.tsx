import { ChevronDown } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';

import { cn } from '../../lib/utils';

interface PhoneCollapsibleProps {
  /** The one line shown on phones while closed. */
  summary: ReactNode;
  children: ReactNode;
  className?: string;
}

/**
 * On phones (below lg) the content folds into one line that opens it, so the page's main task
 * stays on the first screen; from lg up the content always shows and the line is gone.
 */
export function PhoneCollapsible({ summary, children, className }: PhoneCollapsibleProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className={className}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((value) => !value)}
        className="flex w-full items-center justify-between gap-3 rounded-xl border border-border bg-card px-4 py-3 text-left text-sm font-medium shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none lg:hidden"
      >
        <span className="flex min-w-0 items-center gap-2">{summary}</span>
        <ChevronDown aria-hidden="true" className={cn('size-4 shrink-0 transition-transform', open && 'rotate-180')} />
      </button>
      <div id={id} className={cn(open ? 'mt-3 block' : 'hidden', 'lg:mt-0 lg:block')}>
        {children}
      </div>
    </div>
  );
}
