import { MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';

import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Spinner } from '../../../components/ui/spinner';
import { getServerMessage } from '../../../lib/api-client';
import { readText } from '../../../lib/form-data';
import { useSignInOptions } from '../../../lib/sign-in-options';
import { useRequestPasswordReset } from '../api/password-reset';
import { browserFieldErrors, type FieldErrors } from '../field-errors';

const linkClass = 'font-semibold text-primary underline-offset-4 hover:underline';

/** /forgot-password: asks for the email and always answers the same sentence. */
export function ForgotPasswordForm() {
  const { passwordReset, isLoading } = useSignInOptions();
  const request = useRequestPasswordReset();
  const [errors, setErrors] = useState<FieldErrors>({});

  if (isLoading) return <Spinner label="Loading" />;
  if (!passwordReset) {
    return (
      <div className="grid gap-4 text-sm">
        <p>This server cannot send email, so passwords are reset by its administrator.</p>
        <p className="text-muted-foreground">Ask them for a reset link; it works once, for 30 minutes.</p>
        <BackToSignIn />
      </div>
    );
  }
  if (request.isSuccess) {
    return (
      <div className="grid gap-4">
        <p
          role="status"
          className="flex items-start gap-3 rounded-lg bg-emerald-500/10 px-3 py-3 text-sm text-emerald-800 dark:text-emerald-200"
        >
          <MailCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          {request.data}
        </p>
        <p className="text-sm text-muted-foreground">
          No message after a few minutes? Check your spam folder, or ask again.
        </p>
        <BackToSignIn />
      </div>
    );
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const found = browserFieldErrors(form, ['email']);
    setErrors(found);
    if (found.email) return form.querySelector<HTMLInputElement>('input[name=email]')?.focus();
    request.mutate({ email: readText(new FormData(form), 'email').trim() });
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4">
      <FormField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        maxLength={254}
        error={errors.email}
      />
      {request.isError ? (
        <p role="alert" className="rounded-lg bg-destructive/10 px-3 py-2 text-sm font-medium text-destructive">
          {getServerMessage(request.error) ?? 'The request could not be sent. Please try again.'}
        </p>
      ) : null}
      <Button type="submit" variant="brand" size="lg" className="w-full" disabled={request.isPending}>
        {request.isPending ? 'Sending...' : 'SEND RESET LINK'}
      </Button>
      <BackToSignIn />
    </form>
  );
}

function BackToSignIn() {
  return (
    <p className="text-center text-sm text-muted-foreground">
      Remembered it?{' '}
      <Link href="/login" className={linkClass}>
        Sign In
      </Link>
    </p>
  );
}
