import type { FormEvent } from 'react';
import { Link, useLocation } from 'wouter';

import type { Register } from '../../../../shared/auth';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { readText } from '../../../lib/form-data';
import { useRegisterUser } from '../api/register-user';
import { ExternalSignInButtons, OrDivider } from './external-sign-in-buttons';

function readForm(form: HTMLFormElement): Register {
  const data = new FormData(form);
  const text = (name: string) => readText(data, name);
  return {
    firstName: text('firstName').trim(),
    lastName: text('lastName').trim() || null,
    email: text('email').trim(),
    password: text('password'),
  };
}

export function RegisterForm() {
  const [, navigate] = useLocation();
  const register = useRegisterUser({ onSuccess: () => navigate('/dashboard') });

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = readForm(form);
    if (!values.firstName || !values.email || !values.password) {
      toast({ variant: 'destructive', title: 'Missing Information', description: 'Please fill in all required fields' });
      return;
    }
    // The email shape is checked by the browser (type="email").
    if (!form.checkValidity()) {
      form.reportValidity();
      return;
    }
    register.mutate(values, {
      onError: (error) => {
        const description = getServerMessage(error) ?? 'Please try again';
        toast({ variant: 'destructive', title: 'Registration Failed', description });
      },
    });
  }

  return (
    <div>
      <ExternalSignInButtons />
      <OrDivider />
      <form onSubmit={handleSubmit} className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="First Name" name="firstName" autoComplete="given-name" />
          <FormField label="Last Name" name="lastName" autoComplete="family-name" optional />
        </div>
        <FormField label="Email" name="email" type="email" autoComplete="email" inputMode="email" />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters"
        />
        <Button type="submit" variant="brand" size="lg" className="mt-2 w-full" disabled={register.isPending}>
          {register.isPending ? 'Creating Account...' : 'CREATE ACCOUNT'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        Already have an account?{' '}
        <Link href="/login" className="font-semibold text-primary underline-offset-4 hover:underline">
          Sign In
        </Link>
      </p>
    </div>
  );
}
