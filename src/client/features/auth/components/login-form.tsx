import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';

import type { Login } from '../../../../shared/auth';
import { operatorContactHref } from '../../../../shared/money/payments';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { toast } from '../../../components/ui/use-toast';
import { ApiError, getServerMessage } from '../../../lib/api-client';
import { readText } from '../../../lib/form-data';
import { useSignInOptions } from '../../../lib/sign-in-options';
import { useLoginUser } from '../api/login-user';
import { type FieldErrors, serverFieldErrors } from '../field-errors';
import { useFieldErrors } from '../hooks/use-field-errors';
import { useLoginQueryNotice } from '../hooks/use-login-query-notice';
import { ExternalSignInSection } from './external-sign-in-buttons';

function readForm(form: HTMLFormElement): Login {
  const data = new FormData(form);
  return { email: readText(data, 'email').trim(), password: readText(data, 'password') };
}

const linkClass =
  'font-semibold text-primary underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none';

/**
 * Where a failed sign-in's sentence goes, once: a wrong password (with the tries left) beside the
 * password, any other sentence of the server's (a pause, a refusal) above the button. Only a failure
 * with no sentence of its own (the network) is a 'Login Failed' toast.
 */
function errorsFor(error: unknown): { fields: FieldErrors; form: string | null } {
  const fields = serverFieldErrors(error);
  if (Object.keys(fields).length > 0) return { fields, form: null };
  const message = getServerMessage(error);
  if (message && error instanceof ApiError && error.code === 'invalid_credentials')
    return { fields: { password: message }, form: null };
  return { fields: {}, form: message };
}

/**
 * No mail on this server: a reset link comes from the operator (npm run admin -- reset-password), and
 * their contact (OPERATOR_CONTACT, else SUPPORT_EMAIL) says how to reach them.
 */
function AskOperatorForReset({ contact }: { contact: string | null }) {
  if (!contact) {
    return (
      <p className="text-sm text-muted-foreground">
        Forgot your password? Ask the person who runs this server for a reset link.
      </p>
    );
  }
  return (
    <p className="text-sm text-muted-foreground">
      Forgot your password? Ask the operator of this server for a reset link:{' '}
      <a
        href={operatorContactHref(contact)}
        className={`break-all ${linkClass}`}
        {...(contact.startsWith('http') ? { target: '_blank', rel: 'noreferrer' } : {})}
      >
        {contact}
      </a>
      .
    </p>
  );
}

export function LoginForm() {
  const [, navigate] = useLocation();
  const login = useLoginUser({ onSuccess: () => navigate('/dashboard') });
  const { passwordReset, operatorContact, isLoading: optionsLoading } = useSignInOptions();
  const { errors, setErrors, checkFields } = useFieldErrors();
  const [formError, setFormError] = useState<string | null>(null);
  useLoginQueryNotice();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = readForm(form);
    setFormError(null);
    if (!values.email || !values.password) {
      toast({
        variant: 'destructive',
        title: 'Missing Information',
        description: 'Please enter both email and password',
      });
    }
    if (!checkFields(form, ['email', 'password'])) return;
    login.mutate(values, {
      onError: (error) => {
        const shown = errorsFor(error);
        setErrors(shown.fields);
        setFormError(shown.form);
        if (Object.keys(shown.fields).length === 0 && !shown.form) {
          toast({ variant: 'destructive', title: 'Login Failed', description: 'Invalid credentials' });
        }
      },
    });
  }

  return (
    <div>
      <ExternalSignInSection />
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
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={errors.password}
          labelAside={
            passwordReset ? (
              <Link href="/forgot-password" className={`text-sm ${linkClass}`}>
                Forgot password?
              </Link>
            ) : null
          }
        />
        {!passwordReset && !optionsLoading ? <AskOperatorForReset contact={operatorContact} /> : null}
        {formError ? (
          <p role="alert" className="rounded-lg bg-destructive/10 px-3 py-2 text-sm font-medium text-destructive">
            {formError}
          </p>
        ) : null}
        <Button type="submit" variant="brand" size="lg" className="mt-2 w-full" disabled={login.isPending}>
          {login.isPending ? 'Signing In...' : 'SIGN IN'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        New to Reelsmith?{' '}
        <Link href="/register" className={linkClass}>
          Create Account
        </Link>
      </p>
    </div>
  );
}
