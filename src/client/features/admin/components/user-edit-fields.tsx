import { Check, LoaderCircle, X } from 'lucide-react';

import type { AdminUser } from '../../../../shared/admin';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus, subscriptionStatusLabel } from '../../../../shared/auth';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { cn } from '../../../lib/utils';
import type { BoundFieldProps } from '../hooks/use-user-edit-form';

interface FieldProps extends BoundFieldProps {
  id?: string;
  /** The accessible name where no visible label names the input (the table's cells). */
  'aria-label'?: string;
  className?: string;
}

/** A non-negative number of credits, to the hundredth (the ledger's unit). */
export function CreditsInput({ className, ...props }: FieldProps & { placeholder?: string; title?: string }) {
  return (
    <Input {...props} type="number" inputMode="decimal" min={0} step={0.01} className={cn('tabular-nums', className)} />
  );
}

/** The four subscription statuses an administrator may set; premium_unlimited reads 'Admin'. */
export function StatusSelect({ className, ...props }: FieldProps) {
  return (
    <select
      {...props}
      className={cn(
        'w-full rounded-lg border border-input bg-background px-2 text-sm text-foreground shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 disabled:opacity-60',
        className,
      )}
    >
      {SUBSCRIPTION_STATUSES.map((status) => (
        <option key={status} value={status}>
          {subscriptionStatusLabel(status)}
        </option>
      ))}
    </select>
  );
}

/** Shown when the save waits for a second press: an administrator is taking their own unlimited status away. */
export function SelfDemotionWarning({
  from,
  to,
  className,
}: {
  from: SubscriptionStatus;
  to: SubscriptionStatus;
  className?: string;
}) {
  return (
    <p
      role="alert"
      className={cn('rounded-lg bg-warning px-2.5 py-2 text-xs font-medium text-warning-foreground', className)}
    >
      You are changing your own status from {subscriptionStatusLabel(from)} to {subscriptionStatusLabel(to)}: you lose
      unlimited generation. Press save again to confirm.
    </p>
  );
}

interface SaveCancelProps {
  user: AdminUser;
  pending: boolean;
  onCancel: () => void;
  /** Icons only (the table's narrow cell) or words (a phone's card, 44 px tall). */
  compact: boolean;
}

/** Save (submits the form around it) and Cancel, named for the user they act on. */
export function SaveCancelButtons({ user, pending, onCancel, compact }: SaveCancelProps) {
  const saveIcon = pending ? (
    <LoaderCircle aria-hidden="true" className="animate-spin" />
  ) : (
    <Check aria-hidden="true" />
  );
  return (
    <>
      <Button
        type="submit"
        size={compact ? 'icon' : 'default'}
        aria-label={`Save ${user.email}`}
        title="Save"
        className={compact ? 'size-9' : 'h-11 flex-1'}
        disabled={pending}
      >
        {saveIcon}
        {compact ? null : 'Save'}
      </Button>
      <Button
        variant={compact ? 'ghost' : 'outline'}
        size={compact ? 'icon' : 'default'}
        aria-label={`Cancel editing ${user.email}`}
        title="Cancel"
        className={compact ? 'size-9' : 'h-11 flex-1'}
        disabled={pending}
        onClick={onCancel}
      >
        <X aria-hidden="true" />
        {compact ? null : 'Cancel'}
      </Button>
    </>
  );
}
