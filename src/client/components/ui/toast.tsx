import { Close, Description, Provider, Root, Title, Viewport } from '@radix-ui/react-toast';
import { cva, type VariantProps } from 'class-variance-authority';
import { X } from 'lucide-react';
import type { ComponentProps } from 'react';

import { cn } from '../../lib/utils';

/** Browser timings (docs/product-rules.md): 5000 ms by default, swipe right past 50 px to dismiss, F8 focuses the region. */
export function ToastProvider(props: ComponentProps<typeof Provider>) {
  return <Provider duration={5000} swipeDirection="right" swipeThreshold={50} {...props} />;
}

/** At the foot of the screen: above the bottom navigation bar on phones, bottom-right from the sm breakpoint. */
export function ToastViewport({ className, ...props }: ComponentProps<typeof Viewport>) {
  return (
    <Viewport
      className={cn(
        // Phones: at the foot, above the bottom navigation bar, never over the header and the page's heading.
        'fixed bottom-[calc(4.5rem+env(safe-area-inset-bottom))] z-[100] flex max-h-dvh w-full flex-col gap-2 p-4 outline-none sm:right-0 sm:bottom-16 md:max-w-[420px]',
        className,
      )}
      {...props}
    />
  );
}

const toastVariants = cva(
  'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-xl border p-4 pr-8 shadow-lg transition-all data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:transition-none data-[state=closed]:opacity-0',
  {
    variants: {
      variant: {
        default: 'border-border bg-card text-card-foreground',
        destructive: 'destructive border-destructive bg-destructive text-destructive-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

type ToastProps = ComponentProps<typeof Root> & VariantProps<typeof toastVariants>;

export function Toast({ className, variant, ...props }: ToastProps) {
  return <Root className={cn(toastVariants({ variant }), className)} {...props} />;
}

export function ToastClose({ className, ...props }: ComponentProps<typeof Close>) {
  return (
    <Close
      aria-label="Close"
      className={cn(
        'absolute top-2 right-2 rounded-md p-1 opacity-70 transition-opacity hover:opacity-100 focus-visible:opacity-100 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none group-[.destructive]:focus-visible:ring-white',
        className,
      )}
      {...props}
    >
      <X aria-hidden="true" className="size-4" />
    </Close>
  );
}

export function ToastTitle({ className, ...props }: ComponentProps<typeof Title>) {
  return <Title className={cn('text-sm font-semibold', className)} {...props} />;
}

export function ToastDescription({ className, ...props }: ComponentProps<typeof Description>) {
  return <Description className={cn('text-sm opacity-90', className)} {...props} />;
}
