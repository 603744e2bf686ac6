import {
  Content,
  Group,
  Icon,
  Item,
  ItemIndicator,
  ItemText,
  Label,
  Portal,
  Root,
  Trigger,
  Value,
  Viewport,
} from '@radix-ui/react-select';
import { Check, ChevronDown } from 'lucide-react';
import type { ComponentProps } from 'react';

import { cn } from '../../lib/utils';

export const Select = Root;
export const SelectValue = Value;
export const SelectGroup = Group;

/** A heading inside the list for the items of one group. */
export function SelectLabel({ className, ...props }: ComponentProps<typeof Label>) {
  return <Label className={cn('px-2 pt-2 pb-1 text-xs font-semibold text-muted-foreground', className)} {...props} />;
}

export function SelectTrigger({ className, children, ...props }: ComponentProps<typeof Trigger>) {
  return (
    <Trigger
      className={cn(
        'flex h-10 w-full items-center justify-between max-md:min-h-11 gap-2 rounded-lg border border-input bg-background px-3 text-sm shadow-sm outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 disabled:cursor-not-allowed disabled:opacity-50 data-[placeholder]:text-muted-foreground [&>span]:truncate',
        className,
      )}
      {...props}
    >
      {children}
      <Icon asChild>
        <ChevronDown aria-hidden="true" className="size-4 opacity-60" />
      </Icon>
    </Trigger>
  );
}

export function SelectContent({ className, children, ...props }: ComponentProps<typeof Content>) {
  return (
    <Portal>
      <Content
        position="popper"
        sideOffset={4}
        className={cn(
          'relative z-50 max-h-80 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-lg border border-border bg-card text-card-foreground shadow-lg',
          className,
        )}
        {...props}
      >
        <Viewport className="p-1">{children}</Viewport>
      </Content>
    </Portal>
  );
}

export function SelectItem({ className, children, ...props }: ComponentProps<typeof Item>) {
  return (
    <Item
      className={cn(
        'relative flex w-full cursor-default items-center rounded-md py-2 pr-8 pl-2 text-sm outline-none select-none data-[disabled]:pointer-events-none data-[disabled]:opacity-50 data-[highlighted]:bg-muted',
        className,
      )}
      {...props}
    >
      <ItemText>{children}</ItemText>
      <span className="absolute right-2 flex size-4 items-center justify-center">
        <ItemIndicator>
          <Check aria-hidden="true" className="size-4" />
        </ItemIndicator>
      </span>
    </Item>
  );
}
