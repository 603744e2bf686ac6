import type { FormEvent } from 'react';
import { Link, useLocation } from 'wouter';

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type Register } from '../../../../shared/auth';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { toast } from '../../../components/ui/use-toast';
import { ApiError, getServerMessage } from '../../../lib/api-client';
import { readText } from '../../../lib/form-data';
import { useRegisterUser } from '../api/register-user';
import { type FieldErrors, serverFieldErrors } from '../field-errors';
import { useFieldErrors } from '../hooks/use-field-errors';
import { ExternalSignInSection } from './external-sign-in-buttons';

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

function errorsFor(error: unknown): FieldErrors {
  if (error instanceof ApiError && error.code === 'email_taken') {
    return { email: 'An account with this email already exists. Sign in instead, or use another email.' };
  }
  return serverFieldErrors(error);
}

export function RegisterForm() {
  const [, navigate] = useLocation();
  const register = useRegisterUser({ onSuccess: () => navigate('/dashboard') });
  const { errors, setErrors, checkFields } = useFieldErrors();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = readForm(form);
    if (!values.firstName || !values.email || !values.password) {
      toast({
        variant: 'destructive',
        title: 'Missing Information',
        description: 'Please fill in all required fields',
      });
    }
    if (!checkFields(form, ['firstName', 'email', 'password'])) return;
    register.mutate(values, {
      onError: (error) => {
        setErrors(errorsFor(error));
        const description = getServerMessage(error) ?? 'Please try again';
        toast({ variant: 'destructive', title: 'Registration Failed', description });
      },
    });
  }

  return (
    <div>
      <ExternalSignInSection />
      <form onSubmit={handleSubmit} noValidate className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="First Name"
            name="firstName"
            autoComplete="given-name"
            required
            maxLength={100}
            error={errors.firstName}
          />
          <FormField
            label="Last Name"
            name="lastName"
            autoComplete="family-name"
            optional
            maxLength={100}
            error={errors.lastName}
          />
        </div>
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
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters`}
          error={errors.password}
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
