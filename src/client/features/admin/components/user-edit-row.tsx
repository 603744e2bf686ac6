import { Input } from '../../../components/ui/input';
import { cn } from '../../../lib/utils';
import { formatDate, formatNumber } from '../format';
import { EDIT_FIELD_LABELS, exactCredits, type UserEditProps, useUserEditForm } from '../hooks/use-user-edit-form';
import { CreditsInput, SaveCancelButtons, SelfDemotionWarning, StatusSelect } from './user-edit-fields';

const inputClass = 'h-9 px-2.5';
const creditsClass = cn(inputClass, 'ml-auto w-20 text-right');
const hintClass = 'mt-1 text-right text-xs whitespace-nowrap text-muted-foreground';

/**
 * One user as inputs in the table, each under its own column's header (the cells line up with
 * UserRow's); saved with the admin edit payload, Escape or Cancel leaves without saving.
 */
export function UserEditRow(props: UserEditProps) {
  const { user, onDone } = props;
  const form = useUserEditForm(props);
  const { bind } = form;
  return (
    <tr className="border-b border-border bg-primary/5 last:border-0" onKeyDown={form.handleKeyDown}>
      <td className="px-2.5 py-2 align-top">
        <Input
          {...bind('email')}
          type="email"
          required
          maxLength={254}
          autoComplete="off"
          aria-label={EDIT_FIELD_LABELS.email}
          className={cn(inputClass, 'min-w-44')}
        />
      </td>
      <td className="px-2.5 py-2 align-top">
        <div className="grid min-w-32 gap-1.5">
          {(['firstName', 'lastName'] as const).map((field) => (
            <Input
              key={field}
              {...bind(field)}
              maxLength={100}
              autoComplete="off"
              aria-label={EDIT_FIELD_LABELS[field]}
              placeholder={EDIT_FIELD_LABELS[field]}
              className={inputClass}
            />
          ))}
        </div>
      </td>
      <td className="px-2.5 py-3 align-top whitespace-nowrap text-muted-foreground">{formatDate(user.createdAt)}</td>
      <td className="px-2.5 py-2 align-top">
        <CreditsInput
          {...bind('availableCredits')}
          aria-label={EDIT_FIELD_LABELS.availableCredits}
          className={creditsClass}
        />
        <p className={hintClass}>Now {exactCredits(user.availableCredits)}</p>
      </td>
      <td className="px-2.5 py-2 align-top">
        <CreditsInput
          {...bind('totalCreditsUsed')}
          aria-label={EDIT_FIELD_LABELS.totalCreditsUsed}
          className={creditsClass}
        />
      </td>
      <td className="px-2.5 py-3 text-right align-top tabular-nums">{formatNumber(user.creditsLast30Days)}</td>
      <td className="px-2.5 py-3 text-right align-top tabular-nums">
        {formatNumber(user.totalLifetimeCredits)}
        <p className={hintClass}>From credits added</p>
      </td>
      <td className="px-2.5 py-2 align-top">
        <StatusSelect
          {...bind('subscriptionStatus')}
          aria-label={EDIT_FIELD_LABELS.subscriptionStatus}
          className="h-9 min-w-28"
        />
        <label className="mt-1.5 block text-xs text-muted-foreground">
          {EDIT_FIELD_LABELS.dailySpendCap}
          <CreditsInput
            {...bind('dailySpendCap')}
            placeholder="Default"
            title="Credits this user may spend a UTC day: blank for the default, 0 for no cap"
            className={cn(inputClass, 'mt-1 w-full min-w-28 text-right text-foreground')}
          />
        </label>
      </td>
      <td className="px-2.5 py-2 align-top">
        {form.confirmingSelf ? (
          <SelfDemotionWarning
            from={user.subscriptionStatus}
            to={form.draft.subscriptionStatus}
            className="mb-2 max-w-56"
          />
        ) : null}
        <form id={form.formId} onSubmit={form.handleSubmit} className="flex items-center justify-end gap-2">
          <SaveCancelButtons user={user} pending={form.pending} onCancel={onDone} compact />
        </form>
      </td>
    </tr>
  );
}
