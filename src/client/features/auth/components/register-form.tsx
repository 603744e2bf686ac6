import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type Register } from '../../../../shared/auth';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { toast } from '../../../components/ui/use-toast';
import { ApiError, getServerMessage } from '../../../lib/api-client';
import { readText } from '../../../lib/form-data';
import { useRegisterUser } from '../api/register-user';
import { browserFieldErrors, type FieldErrors, serverFieldErrors } from '../field-errors';
import { useFieldErrors } from '../hooks/use-field-errors';
import { useRegistrationChallenge } from '../hooks/use-registration-challenge';
import { useSignInOptions } from '../../../lib/sign-in-options';
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
  const challenge = useRegistrationChallenge(useSignInOptions().registrationChallenge);
  const [waitingForCheck, setWaitingForCheck] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = readForm(form);
    const required = ['firstName', 'email', 'password'] as const;
    if (!checkFields(form, required)) {
      // Each field says what is wrong with it; the toast is for missing fields only (a too-short
      // password is not 'missing'), and then also names the other problems.
      if (!values.firstName || !values.email || !values.password) {
        const others = Object.entries(browserFieldErrors(form, required))
          .filter(([name]) => values[name as keyof Register])
          .map(([, sentence]) => sentence);
        toast({
          variant: 'destructive',
          title: 'Missing Information',
          description: ['Please fill in all required fields', ...others].join('. '),
        });
      }
      return;
    }
    setWaitingForCheck(true);
    const challengeSolution = await challenge.takeSolution();
    setWaitingForCheck(false);
    register.mutate(
      { ...values, challengeSolution },
      {
        onError: (error) => {
          const fields = errorsFor(error);
          setErrors(fields);
          // A sentence beside a field is said there only; anything else is the toast.
          if (Object.keys(fields).length > 0) return;
          const description = getServerMessage(error) ?? 'Please try again';
          toast({ variant: 'destructive', title: 'Registration Failed', description });
        },
      },
    );
  }

  return (
    <div>
      <ExternalSignInSection />
      <form onSubmit={(event) => void handleSubmit(event)} noValidate className="grid gap-4">
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
        <p role="status" className="text-sm text-muted-foreground">
          {challenge.state === 'checking' ? 'Checking this browser…' : ''}
        </p>
        <Button
          type="submit"
          variant="brand"
          size="lg"
          className="mt-2 w-full"
          disabled={register.isPending || waitingForCheck}
        >
          {register.isPending || waitingForCheck ? 'Creating Account...' : 'CREATE ACCOUNT'}
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
