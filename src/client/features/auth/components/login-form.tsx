import type { FormEvent } from 'react';
import { Link, useLocation } from 'wouter';

import type { Login } from '../../../../shared/auth';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { readText } from '../../../lib/form-data';
import { useLoginUser } from '../api/login-user';
import { useLoginQueryNotice } from '../hooks/use-login-query-notice';
import { ExternalSignInButtons, OrDivider } from './external-sign-in-buttons';

function readForm(form: HTMLFormElement): Login {
  const data = new FormData(form);
  return { email: readText(data, 'email').trim(), password: readText(data, 'password') };
}

export function LoginForm() {
  const [, navigate] = useLocation();
  const login = useLoginUser({ onSuccess: () => navigate('/dashboard') });
  useLoginQueryNotice();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = readForm(form);
    if (!values.email || !values.password) {
      toast({ variant: 'destructive', title: 'Missing Information', description: 'Please enter both email and password' });
      return;
    }
    if (!form.checkValidity()) {
      form.reportValidity();
      return;
    }
    login.mutate(values, {
      onError: (error) => {
        const description = getServerMessage(error) ?? 'Invalid credentials';
        toast({ variant: 'destructive', title: 'Login Failed', description });
      },
    });
  }

  return (
    <div>
      <ExternalSignInButtons />
      <OrDivider />
      <form onSubmit={handleSubmit} className="grid gap-4">
        <FormField label="Email" name="email" type="email" autoComplete="email" inputMode="email" />
        <FormField label="Password" name="password" type="password" autoComplete="current-password" />
        <Button type="submit" variant="brand" size="lg" className="mt-2 w-full" disabled={login.isPending}>
          {login.isPending ? 'Signing In...' : 'SIGN IN'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        New to Reelsmith?{' '}
        <Link href="/register" className="font-semibold text-primary underline-offset-4 hover:underline">
          Create Account
        </Link>
      </p>
    </div>
  );
}
