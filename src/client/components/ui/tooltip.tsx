import { Content, Portal, Provider, Root, Trigger } from '@radix-ui/react-tooltip';
import type { ComponentProps, ReactNode } from 'react';

import { cn } from '../../lib/utils';

/** Spec section 9: tooltips open after 700 ms, and 300 ms after another one closed. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <Provider delayDuration={700} skipDelayDuration={300}>
      {children}
    </Provider>
  );
}

export const Tooltip = Root;
export const TooltipTrigger = Trigger;

export function TooltipContent({ className, sideOffset = 4, ...props }: ComponentProps<typeof Content>) {
  return (
    <Portal>
      <Content
        sideOffset={sideOffset}
        className={cn('z-50 rounded-md bg-foreground px-3 py-1.5 text-xs text-background shadow-md', className)}
        {...props}
      />
    </Portal>
  );
}
