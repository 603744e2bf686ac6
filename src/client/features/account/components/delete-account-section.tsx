import { useQueryClient } from '@tanstack/react-query';
import { Trash2, TriangleAlert } from 'lucide-react';
import { useState } from 'react';

import { isSubscribed } from '../../../../shared/auth';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeaderRow } from '../../../components/ui/card';
import { ConfirmDeleteDialog } from '../../../components/ui/confirm-delete-dialog';
import { FormField } from '../../../components/ui/form-field';
import { ApiError, getServerMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { browserNavigation } from '../../../lib/browser-navigation';
import { useDeleteAccount } from '../api/account-changes';
import { useSignIns } from '../api/sign-ins';

/** The admin page's sentence, said to the account's owner. */
export function selfDeleteConfirmation(email: string): string {
  return `Are you sure you want to delete your account ${email}? This action cannot be undone and will permanently delete all your data.`;
}

const SUBSCRIPTION_WARNING =
  'You have an active subscription: deleting your account cancels it at Stripe first, so you are not charged again.';

/** The danger zone: deleting the account and all its data, confirmed with the password (or the typed email). */
export function DeleteAccountSection() {
  const { user } = useAuth();
  const hasPassword = useSignIns().data?.hasPassword ?? true;
  const remove = useDeleteAccount();
  const client = useQueryClient();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!user) return null;

  function handleConfirm() {
    if (!value.trim()) {
      setError(hasPassword ? 'Please enter your password.' : 'Please type your email.');
      return;
    }
    setError(null);
    remove.mutate(hasPassword ? { password: value } : { email: value.trim() }, {
      onSuccess: (message) => {
        client.clear();
        browserNavigation.assign(`/login?message=${encodeURIComponent(message)}`);
      },
      onError: (failure) =>
        setError(
          getServerMessage(failure) ??
            (failure instanceof ApiError ? failure.message : 'Your account was not deleted. Please try again.'),
        ),
    });
  }

  return (
    <Card className="border-destructive/40">
      <CardHeaderRow icon={<TriangleAlert aria-hidden="true" />} title="Danger zone" />
      <CardContent className="grid gap-4">
        <CardDescription>
          Deleting your account removes your videos, uploads, credits, receipts, access tokens and webhooks for good,
          and signs you out. It cannot be undone.
        </CardDescription>
        <div>
          <ConfirmDeleteDialog
            trigger={
              <Button variant="destructive">
                <Trash2 aria-hidden="true" /> Delete Account
              </Button>
            }
            title="Delete Account"
            description={selfDeleteConfirmation(user.email)}
            warning={isSubscribed(user.subscriptionStatus) ? SUBSCRIPTION_WARNING : null}
            pending={remove.isPending}
            onConfirm={handleConfirm}
            onOpenChange={() => {
              setValue('');
              setError(null);
            }}
          >
            {hasPassword ? (
              <FormField
                label="Your password"
                name="deletePassword"
                type="password"
                autoComplete="current-password"
                value={value}
                error={error}
                onChange={(event) => {
                  setValue(event.target.value);
                  setError(null);
                }}
              />
            ) : (
              <FormField
                label={`Type ${user.email} to confirm`}
                name="deleteEmail"
                type="email"
                autoComplete="off"
                value={value}
                error={error}
                onChange={(event) => {
                  setValue(event.target.value);
                  setError(null);
                }}
              />
            )}
          </ConfirmDeleteDialog>
        </div>
      </CardContent>
    </Card>
  );
}
