import { type ReactNode, useId } from 'react';

import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { cn } from '../../../lib/utils';
import { formatDate, formatNumber } from '../format';
import {
  type BoundFieldProps,
  type Draft,
  EDIT_FIELD_LABELS,
  exactCredits,
  type UserEditProps,
  useUserEditForm,
} from '../hooks/use-user-edit-form';
import { CreditsInput, SaveCancelButtons, SelfDemotionWarning, StatusSelect } from './user-edit-fields';

/** An input under its own visible label, with an optional hint below it. */
function Field({
  id,
  field,
  hint,
  wide,
  children,
}: {
  id: string;
  field: keyof Draft;
  hint?: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={cn('grid content-start gap-1.5', wide && 'col-span-2')}>
      <Label htmlFor={`${id}-${field}`} className="text-xs text-muted-foreground">
        {EDIT_FIELD_LABELS[field]}
      </Label>
      {children}
      {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
    </div>
  );
}

/**
 * One user being edited on a phone: each input under its own label, two to a line, the figures
 * that are not edited below them, and Save and Cancel 44 px tall.
 */
export function UserEditCard(props: UserEditProps) {
  const { user, onDone } = props;
  const id = useId();
  const form = useUserEditForm(props);
  const input = (field: keyof Draft): BoundFieldProps & { id: string } => ({
    ...form.bind(field),
    id: `${id}-${field}`,
  });
  return (
    <li className="border-b border-border bg-primary/5 px-4 py-4 last:border-0" aria-label={user.email}>
      <form id={form.formId} onSubmit={form.handleSubmit} onKeyDown={form.handleKeyDown} className="grid gap-4">
        <div className="grid grid-cols-2 gap-x-3 gap-y-4">
          <Field id={id} field="email" wide>
            <Input {...input('email')} type="email" required maxLength={254} autoComplete="off" />
          </Field>
          <Field id={id} field="firstName">
            <Input {...input('firstName')} maxLength={100} autoComplete="off" />
          </Field>
          <Field id={id} field="lastName">
            <Input {...input('lastName')} maxLength={100} autoComplete="off" />
          </Field>
          <Field id={id} field="availableCredits" hint={`Now ${exactCredits(user.availableCredits)}`}>
            <CreditsInput {...input('availableCredits')} />
          </Field>
          <Field id={id} field="totalCreditsUsed">
            <CreditsInput {...input('totalCreditsUsed')} />
          </Field>
          <Field id={id} field="subscriptionStatus">
            <StatusSelect {...input('subscriptionStatus')} className="h-11" />
          </Field>
          <Field id={id} field="dailySpendCap" hint="Blank: the default; 0: no cap">
            <CreditsInput {...input('dailySpendCap')} placeholder="Default" />
          </Field>
        </div>
        <dl className="grid grid-cols-3 gap-3 text-sm">
          {[
            ['Signed Up', formatDate(user.createdAt)],
            ['Credits Last 30d', formatNumber(user.creditsLast30Days)],
            ['Lifetime Credits', formatNumber(user.totalLifetimeCredits)],
          ].map(([label, value]) => (
            <div key={label} className="min-w-0">
              <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
              <dd className="mt-0.5 tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
        {form.confirmingSelf ? (
          <SelfDemotionWarning from={user.subscriptionStatus} to={form.draft.subscriptionStatus} />
        ) : null}
        <div className="flex gap-3">
          <SaveCancelButtons user={user} pending={form.pending} onCancel={onDone} compact={false} />
        </div>
      </form>
    </li>
  );
}
