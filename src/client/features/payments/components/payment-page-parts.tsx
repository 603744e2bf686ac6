import { ShieldCheck } from 'lucide-react';

/** The footer of the payment screens (docs/product-rules.md, Screens: payments are secure). */
export function SecurePaymentsNote() {
  return (
    <p className="flex items-center justify-center gap-2 text-center text-xs text-muted-foreground">
      <ShieldCheck aria-hidden="true" className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
      Payments are secure and processed by Stripe. Your card details never reach our servers.
    </p>
  );
}
