import { MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';

import type { AuthUser } from '../../../../shared/auth';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { ApiError, getServerMessage } from '../../../lib/api-client';
import { useSignInOptions } from '../../../lib/sign-in-options';
import { useCancelEmailChange, useEmailChange, useRequestEmailChange } from '../api/account-changes';
import { useSignIns } from '../api/sign-ins';
import { emailProblem, requiredProblem } from '../live-checks';

/** The account's email, its pending change (until the mailed link is followed) and the form to change it. */
export function EmailSetting({ user }: { user: AuthUser }) {
  const pending = useEmailChange().data?.pendingEmail ?? null;
  const cancel = useCancelEmailChange();
  const { passwordReset: canMail, isLoading } = useSignInOptions();
  const [editing, setEditing] = useState(false);

  return (
    <section aria-labelledby="account-email" className="grid gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="account-email" className="text-sm font-medium text-muted-foreground">
          Email
        </h3>
        <span className="font-medium break-all">{user.email}</span>
        {/* Without mail nothing could ever verify it: a warning badge there would only worry. */}
        {user.emailVerifiedAt ? (
          <Badge tone="success">Verified</Badge>
        ) : canMail ? (
          <Badge tone="warning">Not verified</Badge>
        ) : null}
      </div>
      {pending ? (
        <div
          role="status"
          className="grid gap-2 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm sm:flex sm:items-center sm:justify-between"
        >
          <p className="flex min-w-0 items-start gap-2">
            <MailCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span className="min-w-0 break-words">
              <span className="font-semibold">{pending}</span> is pending verification. Follow the link we sent there;
              until then you keep signing in with {user.email}.
            </span>
          </p>
          <Button
            variant="outline"
            size="sm"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate()}
            className="w-full sm:w-auto"
          >
            Cancel Change
          </Button>
        </div>
      ) : null}
      {isLoading ? null : !canMail ? (
        <p className="text-sm text-muted-foreground">
          This server cannot send email, so a new address cannot be confirmed here. Ask the administrator to change it.
        </p>
      ) : editing ? (
        <EmailChangeForm user={user} onDone={() => setEditing(false)} />
      ) : (
        <div>
          <Button variant="outline" onClick={() => setEditing(true)}>
            Change Email
          </Button>
        </div>
      )}
    </section>
  );
}

function EmailChangeForm({ user, onDone }: { user: AuthUser; onDone: () => void }) {
  const request = useRequestEmailChange();
  const hasPassword = useSignIns().data?.hasPassword ?? true;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [checked, setChecked] = useState(false);
  const [serverErrors, setServerErrors] = useState<{ email?: string; password?: string; form?: string }>({});
  const emailError = serverErrors.email ?? emailProblem(email, user.email, checked);
  const passwordError =
    serverErrors.password ?? (hasPassword ? requiredProblem(password, 'your current password', checked) : null);

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    setChecked(true);
    setServerErrors({});
    if (emailProblem(email, user.email, true) || (hasPassword && !password)) return;
    request.mutate(
      { email: email.trim(), ...(hasPassword ? { currentPassword: password } : {}) },
      {
        onSuccess: onDone,
        onError: (error) => {
          const message = getServerMessage(error) ?? 'The link was not sent. Please try again.';
          const code = error instanceof ApiError ? error.code : null;
          if (code === 'wrong_password') setServerErrors({ password: message });
          else if (code === 'email_taken' || code === 'email_unchanged') setServerErrors({ email: message });
          else setServerErrors({ form: message });
        },
      },
    );
  }

  return (
    <form
      onSubmit={handleSubmit}
      noValidate
      className="grid gap-4 rounded-lg border border-border p-3"
      aria-label="Change email"
    >
      <FormField
        label="New email"
        name="newEmail"
        type="email"
        autoComplete="email"
        value={email}
        error={emailError}
        hint="We send a link there; your email changes when you follow it."
        onChange={(event) => {
          setEmail(event.target.value);
          setServerErrors({});
        }}
        onBlur={() => email && setChecked(true)}
      />
      {hasPassword ? (
        <FormField
          label="Current password"
          name="emailCurrentPassword"
          type="password"
          autoComplete="current-password"
          value={password}
          error={passwordError}
          onChange={(event) => {
            setPassword(event.target.value);
            setServerErrors({});
          }}
        />
      ) : null}
      {serverErrors.form ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {serverErrors.form}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={request.isPending}>
          {request.isPending ? 'Sending...' : 'Send Link'}
        </Button>
        <Button variant="outline" onClick={onDone} disabled={request.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
