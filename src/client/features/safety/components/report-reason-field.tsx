import { REPORT_REASON_LABELS, REPORT_REASONS, type ReportReason, TAKEDOWN_STATEMENT } from '../../../../shared/safety';
import { cn } from '../../../lib/utils';
import { needsStatement } from '../report-checks';

interface ReportReasonFieldProps {
  /** The id of the first radio and the statement box's, for focus on an error. */
  idPrefix: string;
  reason: ReportReason | '';
  onReasonChange: (reason: ReportReason) => void;
  statement: boolean;
  onStatementChange: (statement: boolean) => void;
  reasonError?: string;
  statementError?: string;
}

export const reasonInputId = (idPrefix: string, reason: ReportReason) => `${idPrefix}-reason-${reason}`;
export const statementInputId = (idPrefix: string) => `${idPrefix}-statement`;

/**
 * The reasons as native radio buttons (one tab stop, arrow keys), and for a takedown request about
 * a person shown, the statement box the request needs.
 */
export function ReportReasonField(props: ReportReasonFieldProps) {
  const { idPrefix, reason, onReasonChange, statement, onStatementChange, reasonError, statementError } = props;
  const reasonErrorId = `${idPrefix}-reason-error`;
  const statementErrorId = `${idPrefix}-statement-error`;
  return (
    <>
      <fieldset className="grid gap-2" aria-describedby={reasonError ? reasonErrorId : undefined}>
        <legend className="mb-2 text-sm font-medium">What is wrong with it?</legend>
        {reasonError ? (
          <p id={reasonErrorId} className="text-sm font-medium text-destructive">
            {reasonError}
          </p>
        ) : null}
        {REPORT_REASONS.map((value) => (
          <label
            key={value}
            className={cn(
              'flex cursor-pointer items-start gap-3 rounded-lg border border-input px-3 py-2.5 text-sm transition-colors hover:bg-muted',
              'has-checked:border-violet-600 has-checked:bg-violet-500/10 has-focus-visible:ring-2 has-focus-visible:ring-ring/40',
            )}
          >
            <input
              id={reasonInputId(idPrefix, value)}
              type="radio"
              name="reason"
              value={value}
              checked={reason === value}
              onChange={() => onReasonChange(value)}
              aria-invalid={reasonError ? true : undefined}
              className="mt-0.5 size-4 shrink-0 accent-violet-600"
            />
            <span>{REPORT_REASON_LABELS[value]}</span>
          </label>
        ))}
      </fieldset>
      {needsStatement(reason) ? (
        <div className="grid gap-2 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3">
          <label className="flex cursor-pointer items-start gap-3 text-sm max-md:min-h-11">
            <input
              id={statementInputId(idPrefix)}
              type="checkbox"
              name="statement"
              checked={statement}
              onChange={(event) => onStatementChange(event.target.checked)}
              required
              aria-invalid={statementError ? true : undefined}
              aria-describedby={statementError ? statementErrorId : undefined}
              className="mt-0.5 size-4 shrink-0 accent-violet-600"
            />
            <span>{TAKEDOWN_STATEMENT}</span>
          </label>
          {statementError ? (
            <p id={statementErrorId} className="text-sm font-medium text-destructive">
              {statementError}
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
