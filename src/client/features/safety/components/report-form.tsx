import { type FormEvent, useEffect, useId, useRef, useState } from 'react';

import { REPORT_REASONS, type ReportReason, type ReportReceipt } from '../../../../shared/safety';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { useAuth } from '../../../lib/auth';
import { REPORT_FIELDS, type ReportFieldErrors } from '../api/report-error';
import { useSubmitReport } from '../api/submit-report';
import { checkReport, type ReportDraft, reportErrorsFor } from '../report-checks';
import { reasonInputId, ReportReasonField, statementInputId } from './report-reason-field';

type FormErrors = ReportFieldErrors & { form?: string };

interface ReportFormProps {
  /** The link or id to start with (the page's `?video=`). */
  initialVideo: string;
  onReceived: (receipt: ReportReceipt) => void;
}

/**
 * The report: which video, why, anything else, who to write to (the account's email when signed
 * in), and for a takedown request the statement. Each error is said at its field, or above the
 * button, and focus moves to the first.
 */
export function ReportForm({ initialVideo, onReceived }: ReportFormProps) {
  const { user } = useAuth();
  const submit = useSubmitReport();
  const id = useId();
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [statement, setStatement] = useState(false);
  const [errors, setErrors] = useState<FormErrors>({});
  // Each failed attempt moves focus to its first error (by id; null: the sentence above the button),
  // once it is on screen with its sentence, so the sentence is read with it.
  const [focusTarget, setFocusTarget] = useState<{ id: string | null } | null>(null);
  const formError = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (!focusTarget) return;
    (focusTarget.id ? document.getElementById(focusTarget.id) : formError.current)?.focus();
  }, [focusTarget]);

  const fail = (found: FormErrors) => {
    setErrors(found);
    const first = REPORT_FIELDS.find((field) => found[field]);
    setFocusTarget({ id: first ? fieldId(id, first, reason) : null });
  };

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value : '';
    };
    const draft: ReportDraft = {
      video: text('video'),
      reason,
      description: text('description'),
      contact: text('contact'),
      statement,
    };
    const checked = checkReport(draft, user !== null);
    if (!checked.body) return fail(checked.errors);
    setErrors({});
    submit.mutate(checked.body, { onSuccess: onReceived, onError: (error) => fail(reportErrorsFor(error)) });
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-5">
      <FormField
        id={fieldId(id, 'video', reason)}
        label="Link to the video"
        name="video"
        defaultValue={initialVideo}
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        maxLength={2000}
        required
        hint="The address of its page or file, or its id."
        error={errors.video}
      />
      <ReportReasonField
        idPrefix={id}
        reason={reason}
        onReasonChange={setReason}
        statement={statement}
        onStatementChange={setStatement}
        reasonError={errors.reason}
        statementError={errors.statement}
      />
      <DescriptionField id={fieldId(id, 'description', reason)} error={errors.description} />
      {user ? (
        <p className="text-sm text-muted-foreground">
          We will write to you at <strong className="break-all text-foreground">{user.email}</strong>, your account's
          email, when it is decided.
        </p>
      ) : (
        <FormField
          id={fieldId(id, 'contact', reason)}
          label="Your email"
          name="contact"
          type="email"
          inputMode="email"
          autoComplete="email"
          maxLength={320}
          required
          hint="We write to you here when it is decided."
          error={errors.contact}
        />
      )}
      <div className="grid gap-3">
        {errors.form ? (
          <p ref={formError} tabIndex={-1} role="alert" className="text-sm font-medium text-destructive outline-none">
            {errors.form}
          </p>
        ) : null}
        <Button type="submit" size="lg" className="w-full" disabled={submit.isPending}>
          {submit.isPending ? 'Sending...' : 'Send Report'}
        </Button>
      </div>
    </form>
  );
}

function DescriptionField({ id, error }: { id: string; error?: string }) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>
        What should we know?<span className="ml-1 font-normal text-muted-foreground">(optional)</span>
      </Label>
      <Textarea
        id={id}
        name="description"
        maxLength={2000}
        rows={4}
        aria-invalid={error ? true : undefined}
        aria-describedby={[error ? errorId : null, hintId].filter(Boolean).join(' ')}
      />
      {error ? (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
      <p id={hintId} className="text-xs text-muted-foreground">
        Who is shown, where in the video, or where the original is: anything that helps decide.
      </p>
    </div>
  );
}

/** The id of the control that takes focus for a field's error (the chosen reason, or the first). */
function fieldId(id: string, field: (typeof REPORT_FIELDS)[number], reason: ReportReason | ''): string {
  if (field === 'reason') return reasonInputId(id, reason || REPORT_REASONS[0]);
  if (field === 'statement') return statementInputId(id);
  return `${id}-${field}`;
}
