import { type ChangeEvent, type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import type { z } from 'zod';

import { type AdminUser, adminUserUpdateSchema } from '../../../../shared/admin';
import { isUnlimitedStatus, type SubscriptionStatus } from '../../../../shared/auth';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useUpdateAdminUser } from '../api/update-admin-user';

/** The input that takes the focus when a user starts editing from a click on one of their fields. */
export type EditField = 'email' | 'firstName' | 'availableCredits' | 'totalCreditsUsed' | 'subscriptionStatus';

/** What the inputs hold: text, as typed. */
export interface Draft {
  firstName: string;
  lastName: string;
  email: string;
  availableCredits: string;
  totalCreditsUsed: string;
  subscriptionStatus: SubscriptionStatus;
  /** Blank: the operator's default cap. */
  dailySpendCap: string;
}

/** The inputs' first values: the user as shown. */
export function toDraft(user: AdminUser): Draft {
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
 * The spec's admin edit payload (names trimmed, null when empty; blank credits 0), with the user as
 * they were shown: the server writes only what changed, and refuses a credit figure that changed meanwhile.
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

/** The label of each input, in the table's row and on the phone's card alike. */
export const EDIT_FIELD_LABELS: Record<keyof Draft, string> = {
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
  const label = (EDIT_FIELD_LABELS as Record<string, string | undefined>)[field];
  if (!label) return issue.message;
  return issue.message.startsWith(field) ? label + issue.message.slice(field.length) : `${label} ${issue.message}`;
}

/** What every input gets: its draft value, the form it belongs to, and the focus and pending state. */
export interface BoundFieldProps {
  form: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void;
  autoFocus: boolean;
  disabled: boolean;
}

/** The user being edited, and what their inputs hold. */
export interface EditingUser {
  id: string;
  /** The input to focus first: the one under the field that was clicked. */
  focus: EditField;
  /**
   * Kept by the list, not by the row or card that draws it: turning a phone (cards) to landscape
   * (the table) keeps what was typed.
   */
  draft: Draft;
}

export interface UserEditProps {
  user: AdminUser;
  editing: EditingUser;
  onDraftChange: (change: Partial<Draft>) => void;
  onDone: () => void;
}

/**
 * One user being edited, whatever draws the inputs (a table row or a card): the inputs' bindings,
 * the save with the admin edit payload, and the confirmation before an administrator takes their
 * own unlimited status away (decision 012). Escape leaves without saving.
 */
export function useUserEditForm({ user, editing, onDraftChange, onDone }: UserEditProps) {
  const formId = useId();
  const { draft, focus } = editing;
  const update = useUpdateAdminUser();
  const { user: me } = useAuth();
  const [confirmingSelf, setConfirmingSelf] = useState(false);
  const demotesSelf =
    me?.id === user.id && isUnlimitedStatus(user.subscriptionStatus) && !isUnlimitedStatus(draft.subscriptionStatus);

  const bind = (field: keyof Draft): BoundFieldProps => ({
    form: formId,
    value: draft[field],
    onChange: (event) => onDraftChange({ [field]: event.target.value }),
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

  function handleKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'Escape' && !update.isPending) onDone();
  }

  return {
    formId,
    draft,
    bind,
    handleSubmit,
    handleKeyDown,
    pending: update.isPending,
    /** The save is waiting for a second press: the administrator is demoting themselves. */
    confirmingSelf: confirmingSelf && demotesSelf,
  };
}
