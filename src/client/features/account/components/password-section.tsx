import { LockKeyhole } from 'lucide-react';
import { type FormEvent, useState } from 'react';

import { NO_PASSWORD_MESSAGE } from '../../../../shared/accounts';
import { PASSWORD_MIN_LENGTH } from '../../../../shared/auth';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeaderRow } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { ApiError, getServerMessage } from '../../../lib/api-client';
import { useChangePassword } from '../api/account-changes';
import { useSignIns } from '../api/sign-ins';
import { newPasswordProblem, repeatProblem, requiredProblem } from '../live-checks';

/** The account page's password change: the current one, then the new one twice. */
export function PasswordSection() {
  const signIns = useSignIns();
  return (
    <Card>
      <CardHeaderRow icon={<LockKeyhole aria-hidden="true" />} title="Password" />
      <CardContent>
        {signIns.data && !signIns.data.hasPassword ? (
          <p className="text-sm text-muted-foreground">{NO_PASSWORD_MESSAGE}</p>
        ) : (
          <PasswordForm />
        )}
      </CardContent>
    </Card>
  );
}

function PasswordForm() {
  const change = useChangePassword();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [wrongCurrent, setWrongCurrent] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const currentError = wrongCurrent ?? requiredProblem(current, 'your current password', submitted);
  const nextError = newPasswordProblem(next, submitted);
  const repeatError = repeatProblem(next, repeat, submitted);

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setFormError(null);
    setDone(null);
    if (!current || newPasswordProblem(next, true) || repeatProblem(next, repeat, true)) return;
    change.mutate(
      { currentPassword: current, newPassword: next },
      {
        onSuccess: (message) => {
          setCurrent('');
          setNext('');
          setRepeat('');
          setSubmitted(false);
          setDone(message);
        },
        onError: (error) => {
          const message = getServerMessage(error) ?? 'Your password was not changed. Please try again.';
          if (error instanceof ApiError && error.code === 'wrong_password') setWrongCurrent(message);
          else setFormError(message);
        },
      },
    );
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4" aria-label="Change password">
      <FormField
        label="Current password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        value={current}
        error={currentError}
        onChange={(event) => {
          setCurrent(event.target.value);
          setWrongCurrent(null);
        }}
      />
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          value={next}
          error={nextError}
          hint={nextError ? undefined : `At least ${PASSWORD_MIN_LENGTH} characters.`}
          onChange={(event) => setNext(event.target.value)}
        />
        <FormField
          label="New password again"
          name="repeatPassword"
          type="password"
          autoComplete="new-password"
          value={repeat}
          error={repeatError}
          onChange={(event) => setRepeat(event.target.value)}
        />
      </div>
      {formError ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {formError}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? 'Changing...' : 'Change Password'}
        </Button>
        <p role="status" className="text-sm text-muted-foreground">
          {done ?? ''}
        </p>
      </div>
    </form>
  );
}
