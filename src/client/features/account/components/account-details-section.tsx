import { UserRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';

import type { AuthUser } from '../../../../shared/auth';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeaderRow } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { getServerMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useUpdateName } from '../api/account-changes';
import { firstNameProblem, lastNameProblem } from '../live-checks';
import { EmailSetting } from './email-setting';

const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** The account page's first section: who is signed in, with the name and email editable. */
export function AccountDetailsSection() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <Card>
      <CardHeaderRow icon={<UserRound aria-hidden="true" />} title="Your account" />
      <CardContent className="grid gap-6">
        <NameForm user={user} />
        <EmailSetting user={user} />
        <p className="text-sm text-muted-foreground">
          Member since <span className="font-medium text-foreground">{DATE.format(new Date(user.createdAt))}</span>
        </p>
      </CardContent>
    </Card>
  );
}

function NameForm({ user }: { user: AuthUser }) {
  const update = useUpdateName();
  const [firstName, setFirstName] = useState(user.firstName ?? '');
  const [lastName, setLastName] = useState(user.lastName ?? '');
  const [saved, setSaved] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const firstError = firstNameProblem(firstName);
  const lastError = lastNameProblem(lastName);
  const unchanged = firstName.trim() === (user.firstName ?? '') && lastName.trim() === (user.lastName ?? '');

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (firstError || lastError || unchanged) return;
    setFormError(null);
    update.mutate(
      { firstName: firstName.trim(), lastName: lastName.trim() || null },
      {
        onSuccess: (next) => {
          setFirstName(next.firstName ?? '');
          setLastName(next.lastName ?? '');
          setSaved(true);
        },
        onError: (error) => setFormError(getServerMessage(error) ?? 'Your name was not saved. Please try again.'),
      },
    );
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4" aria-label="Your name">
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField
          label="First name"
          name="firstName"
          autoComplete="given-name"
          value={firstName}
          error={firstError}
          onChange={(event) => {
            setFirstName(event.target.value);
            setSaved(false);
          }}
        />
        <FormField
          label="Last name"
          name="lastName"
          optional
          autoComplete="family-name"
          value={lastName}
          error={lastError}
          onChange={(event) => {
            setLastName(event.target.value);
            setSaved(false);
          }}
        />
      </div>
      {formError ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {formError}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={update.isPending || unchanged || Boolean(firstError || lastError)}>
          {update.isPending ? 'Saving...' : 'Save Name'}
        </Button>
        <p role="status" className="text-sm text-muted-foreground">
          {saved ? 'Your name was saved.' : ''}
        </p>
      </div>
    </form>
  );
}
