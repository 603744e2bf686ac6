import { Close, Content, Description, Overlay, Portal, Root, Title, Trigger } from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { type ComponentProps, type ReactNode, useRef } from 'react';

import { cn } from '../../lib/utils';

export const Dialog = Root;
export const DialogClose = Close;
export const DialogTrigger = Trigger;

export function DialogContent({
  className,
  children,
  hideClose = false,
  onOpenAutoFocus,
  onCloseAutoFocus,
  ...props
}: ComponentProps<typeof Content> & { hideClose?: boolean; children: ReactNode }) {
  // Radix returns focus to a Dialog.Trigger; dialogs opened from state have none, so focus would
  // fall to <body>. The control focused when the dialog opened gets it back instead.
  const opener = useRef<HTMLElement | null>(null);
  const handleOpenAutoFocus = (event: Event) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    onOpenAutoFocus?.(event);
  };
  const handleCloseAutoFocus = (event: Event) => {
    onCloseAutoFocus?.(event);
    const target = opener.current;
    if (event.defaultPrevented || !target || !target.isConnected || target === document.body) return;
    event.preventDefault();
    target.focus();
  };
  return (
    <Portal>
      <Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-[2px]" />
      <Content
        className={cn(
          'fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border border-border bg-card p-6 text-card-foreground shadow-xl outline-none',
          className,
        )}
        onOpenAutoFocus={handleOpenAutoFocus}
        onCloseAutoFocus={handleCloseAutoFocus}
        {...props}
      >
        {children}
        {hideClose ? null : (
          // 24 px from md up, 44 px on a phone (a thumb's target), its cross where it was.
          <Close className="absolute top-4 right-4 rounded-md p-1 text-muted-foreground transition-colors hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none max-md:top-2 max-md:right-2 max-md:p-3.5">
            <X aria-hidden="true" className="size-4" />
            <span className="sr-only">Close</span>
          </Close>
        )}
      </Content>
    </Portal>
  );
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof Title>) {
  return <Title className={cn('pr-8 text-lg leading-tight font-semibold', className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof Description>) {
  return <Description className={cn('text-sm text-muted-foreground', className)} {...props} />;
}
