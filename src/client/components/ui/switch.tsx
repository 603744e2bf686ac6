import { Root, Thumb } from '@radix-ui/react-switch';
import type { ComponentProps } from 'react';

import { cn } from '../../lib/utils';

export function Switch({ className, ...props }: ComponentProps<typeof Root>) {
  return (
    <Root
      className={cn(
        'peer inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-violet-600 data-[state=unchecked]:bg-muted-foreground/30',
        className,
      )}
      {...props}
    >
      <Thumb className="pointer-events-none block size-5 rounded-full bg-white shadow-md ring-0 transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0" />
    </Root>
  );
}
