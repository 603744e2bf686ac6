import { Check, LoaderCircle, X } from 'lucide-react';
import { type ChangeEvent, type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import type { z } from 'zod';

import { type AdminUser, adminUserUpdateSchema } from '../../../../shared/admin';
import {
  isUnlimitedStatus,
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
  subscriptionStatusLabel,
} from '../../../../shared/auth';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { cn } from '../../../lib/utils';
import { useUpdateAdminUser } from '../api/update-admin-user';
import { formatDate, formatNumber } from '../format';
import type { EditField } from './user-row';

/** What the inputs hold: text, as typed. */
interface Draft {
  firstName: string;
  lastName: string;
  email: string;
  availableCredits: string;
  totalCreditsUsed: string;
  subscriptionStatus: SubscriptionStatus;
  /** Blank: the operator's default cap. */
  dailySpendCap: string;
}

function toDraft(user: AdminUser): Draft {
  return {
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    email: user.email,
    availableCredits: exactCredits(user.availableCredits),
    totalCreditsUsed: exactCredits(user.totalCreditsUsed),
    subscriptionStatus: user.subscriptionStatus,
    dailySpendCap: user.dailySpendCap == null ? '' : exactCredits(user.dailySpendCap),
  };
}

/** A balance as the ledger holds it, to the hundredth: '12', '12.50'. */
export function exactCredits(credits: number): string {
  return Number.isInteger(credits) ? String(credits) : credits.toFixed(2);
}

/** A blank credits field means 0 (docs/product-rules.md, Administration). */
function toCredits(text: string): number {
  return text.trim() === '' ? 0 : Number(text);
}

/**
 * The spec's admin edit payload (names trimmed, null when empty; blank credits 0), with the row as
 * it was shown: the server writes only what changed, and refuses a credit figure that changed meanwhile.
 */
function toPayload(draft: Draft, shown: AdminUser) {
  return {
    firstName: draft.firstName.trim() || null,
    lastName: draft.lastName.trim() || null,
    email: draft.email.trim(),
    availableCredits: toCredits(draft.availableCredits),
    subscriptionStatus: draft.subscriptionStatus,
    totalCreditsUsed: toCredits(draft.totalCreditsUsed),
    // Blank follows the operator's default (DAILY_SPEND_CAP_CREDITS); 0 is no cap for this user.
    dailySpendCap: draft.dailySpendCap.trim() === '' ? null : Number(draft.dailySpendCap),
    original: {
      firstName: shown.firstName,
      lastName: shown.lastName,
      email: shown.email,
      availableCredits: shown.availableCredits,
      totalCreditsUsed: shown.totalCreditsUsed,
      subscriptionStatus: shown.subscriptionStatus,
      dailySpendCap: shown.dailySpendCap ?? null,
    },
  };
}

const FIELD_LABELS: Record<string, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  availableCredits: 'Current credits',
  totalCreditsUsed: 'Credits used',
  subscriptionStatus: 'Status',
  dailySpendCap: 'Daily spend cap',
};

/** The shared rule's message, led by the field's label ('Credits used must be a whole number'). */
function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'Failed to update user';
  const field = String(issue.path[0] ?? '');
  const label = FIELD_LABELS[field];
  if (!label) return issue.message;
  return issue.message.startsWith(field) ? label + issue.message.slice(field.length) : `${label} ${issue.message}`;
}

interface UserEditRowProps {
  user: AdminUser;
  /** The input to focus first: the one under the cell that was clicked. */
  focus: EditField;
  onDone: () => void;
}

const inputClass = 'h-9 px-2.5';

/** What every input of the row gets: its draft value, the row's form, and the focus and pending state. */
interface BoundFieldProps {
  form: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void;
  autoFocus: boolean;
  disabled: boolean;
}

/** One user as inputs, saved with the admin edit payload; Escape or Cancel leaves without saving. */
export function UserEditRow({ user, focus, onDone }: UserEditRowProps) {
  const formId = useId();
  const [draft, setDraft] = useState(() => toDraft(user));
  const update = useUpdateAdminUser();
  const { user: me } = useAuth();
  // Taking one's own unlimited status away is asked about first (decision 012).
  const [confirmingSelf, setConfirmingSelf] = useState(false);
  const demotesSelf =
    me?.id === user.id && isUnlimitedStatus(user.subscriptionStatus) && !isUnlimitedStatus(draft.subscriptionStatus);
  const bind = (field: keyof Draft): BoundFieldProps => ({
    form: formId,
    value: draft[field],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      setDraft((current) => ({ ...current, [field]: event.target.value })),
    autoFocus: focus === field,
    disabled: update.isPending,
  });

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    if (!form.checkValidity()) {
      form.reportValidity();
      return;
    }
    const parsed = adminUserUpdateSchema.safeParse(toPayload(draft, user));
    if (!parsed.success) {
      toast({ variant: 'destructive', title: 'Update Failed', description: describeIssue(parsed.error.issues[0]) });
      return;
    }
    if (demotesSelf && !confirmingSelf) {
      setConfirmingSelf(true);
      return;
    }
    setConfirmingSelf(false);
    update.mutate(
      { id: user.id, update: parsed.data },
      {
        onSuccess: ({ message }) => {
          toast({ title: 'User Updated', description: message });
          onDone();
        },
        onError: (error) => {
          const description = getServerMessage(error) ?? 'Failed to update user';
          toast({ variant: 'destructive', title: 'Update Failed', description });
        },
      },
    );
  }

  function handleKeyDown(event: KeyboardEvent<HTMLTableRowElement>) {
    if (event.key === 'Escape' && !update.isPending) onDone();
  }

  return (
    <tr className="border-b border-border bg-primary/5 last:border-0" onKeyDown={handleKeyDown}>
      <td className="px-3 py-2 align-top">
        <Input
          {...bind('email')}
          type="email"
          required
          maxLength={254}
          autoComplete="off"
          aria-label="Email"
          className={cn(inputClass, 'min-w-52')}
        />
      </td>
      <td className="px-3 py-2 align-top">
        <div className="grid min-w-36 gap-1.5">
          <Input
            {...bind('firstName')}
            maxLength={100}
            autoComplete="off"
            aria-label="First name"
            placeholder="First name"
            className={inputClass}
          />
          <Input
            {...bind('lastName')}
            maxLength={100}
            autoComplete="off"
            aria-label="Last name"
            placeholder="Last name"
            className={inputClass}
          />
        </div>
      </td>
      <td className="px-3 py-3 align-top whitespace-nowrap text-muted-foreground">{formatDate(user.createdAt)}</td>
      <td className="px-3 py-2 align-top">
        <CreditsInput {...bind('availableCredits')} label="Current credits" />
        <p className="mt-1 text-right text-xs whitespace-nowrap text-muted-foreground">
          Now {exactCredits(user.availableCredits)}
        </p>
      </td>
      <td className="px-3 py-3 text-right align-top tabular-nums">{formatNumber(user.creditsLast30Days)}</td>
      <td className="px-3 py-2 align-top">
        <CreditsInput {...bind('totalCreditsUsed')} label="Credits used" />
        <p aria-hidden="true" className="mt-1 text-right text-xs text-muted-foreground">
          Credits used
        </p>
      </td>
      <td className="px-3 py-2 align-top">
        <select
          {...bind('subscriptionStatus')}
          aria-label="Status"
          className="h-9 w-full min-w-28 rounded-lg border border-input bg-background px-2 text-sm text-foreground shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 disabled:opacity-60"
        >
          {SUBSCRIPTION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {subscriptionStatusLabel(status)}
            </option>
          ))}
        </select>
        <div className="mt-1.5">
          <CreditsInput
            {...bind('dailySpendCap')}
            label="Daily spend cap"
            placeholder="Default"
            title="Credits this user may spend a UTC day: blank for the default, 0 for no cap"
          />
        </div>
        <p aria-hidden="true" className="mt-1 text-right text-xs text-muted-foreground">
          Daily cap
        </p>
      </td>
      <td className="px-3 py-2 align-top">
        {confirmingSelf && demotesSelf ? (
          <p
            role="alert"
            className="mb-2 max-w-56 rounded-lg bg-warning px-2.5 py-2 text-xs font-medium text-warning-foreground"
          >
            You are changing your own status from {subscriptionStatusLabel(user.subscriptionStatus)} to{' '}
            {subscriptionStatusLabel(draft.subscriptionStatus)}: you lose unlimited generation. Press save again to
            confirm.
          </p>
        ) : null}
        <form id={formId} onSubmit={handleSubmit} className="flex items-center justify-end gap-1">
          <Button
            type="submit"
            size="icon"
            aria-label={`Save ${user.email}`}
            title="Save"
            className="size-8"
            disabled={update.isPending}
          >
            {update.isPending ? (
              <LoaderCircle aria-hidden="true" className="animate-spin" />
            ) : (
              <Check aria-hidden="true" />
            )}
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Cancel editing ${user.email}`}
            title="Cancel"
            className="size-8"
            disabled={update.isPending}
            onClick={onDone}
          >
            <X aria-hidden="true" />
          </Button>
        </form>
      </td>
    </tr>
  );
}

/** A non-negative number of credits, to the hundredth (the ledger's unit). */
function CreditsInput({ label, ...props }: BoundFieldProps & { label: string; placeholder?: string; title?: string }) {
  return (
    <Input
      {...props}
      type="number"
      inputMode="decimal"
      min={0}
      step={0.01}
      aria-label={label}
      className={cn(inputClass, 'ml-auto w-24 text-right tabular-nums')}
    />
  );
}
