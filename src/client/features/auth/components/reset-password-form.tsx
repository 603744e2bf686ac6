import { type FormEvent, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../shared/auth';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { toast } from '../../../components/ui/use-toast';
import { ApiError, getServerMessage } from '../../../lib/api-client';
import { readText } from '../../../lib/form-data';
import { useConfirmPasswordReset } from '../api/password-reset';
import { browserFieldErrors, type FieldErrors, serverFieldErrors } from '../field-errors';

const linkClass = 'font-semibold text-primary underline-offset-4 hover:underline';

/** /reset-password?token=…: the mailed (or operator's) one-time link; a new password signs this browser in. */
export function ResetPasswordForm() {
  const [, navigate] = useLocation();
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [errors, setErrors] = useState<FieldErrors>({});
  const [linkProblem, setLinkProblem] = useState<string | null>(
    token ? null : 'This page needs the link from your email.',
  );
  const confirm = useConfirmPasswordReset({
    onSuccess: () => {
      toast({
        title: 'Password Changed',
        description: 'Your new password is set, and every other device was signed out.',
      });
      navigate('/dashboard', { replace: true });
    },
  });

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const found = browserFieldErrors(form, ['password']);
    setErrors(found);
    if (found.password) return form.querySelector<HTMLInputElement>('input[name=password]')?.focus();
    confirm.mutate(
      { token, password: readText(new FormData(form), 'password') },
      {
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'reset_link_invalid')
            return setLinkProblem(error.serverMessage);
          const fields = serverFieldErrors(error);
          setErrors(
            Object.keys(fields).length > 0 ? fields : { password: getServerMessage(error) ?? 'Please try again.' },
          );
        },
      },
    );
  }

  if (linkProblem) {
    return (
      <div className="grid gap-4 text-sm">
        <p role="alert" className="rounded-lg bg-destructive/10 px-3 py-2 font-medium text-destructive">
          {linkProblem}
        </p>
        <p className="text-center">
          <Link href="/forgot-password" className={linkClass}>
            Ask for a new link
          </Link>
        </p>
      </div>
    );
  }
  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4">
      <FormField
        label="New Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        maxLength={PASSWORD_MAX_LENGTH}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters. Every other device will be signed out.`}
        error={errors.password}
      />
      <Button type="submit" variant="brand" size="lg" className="w-full" disabled={confirm.isPending}>
        {confirm.isPending ? 'Saving...' : 'SET NEW PASSWORD'}
      </Button>
    </form>
  );
}
