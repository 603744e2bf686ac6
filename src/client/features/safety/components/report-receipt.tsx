import { CircleCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';

import type { ReportReceipt } from '../../../../shared/safety';
import { Button } from '../../../components/ui/button';
import { formatWhen } from '../format';

/** What a sent report is told: the server's sentence, when the decision is due, and its reference. */
export function ReportReceiptView({
  receipt,
  onReportAnother,
}: {
  receipt: ReportReceipt;
  onReportAnother: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="report-received" className="grid gap-4">
      <h2
        id="report-received"
        ref={heading}
        tabIndex={-1}
        className="flex items-center gap-2 text-lg font-semibold outline-none"
      >
        <CircleCheck aria-hidden="true" className="size-5 text-emerald-600 dark:text-emerald-400" />
        Report received
      </h2>
      <p className="text-sm">{receipt.message}</p>
      <dl className="grid gap-3 rounded-lg bg-muted/60 p-3 text-sm">
        <div>
          <dt className="text-xs font-medium text-muted-foreground">Decision due by</dt>
          <dd className="font-medium">
            <time dateTime={receipt.dueAt}>{formatWhen(receipt.dueAt)}</time>
          </dd>
        </div>
        <div>
          <dt className="text-xs font-medium text-muted-foreground">Reference</dt>
          <dd className="font-mono text-xs break-all">{receipt.id}</dd>
        </div>
      </dl>
      <Button variant="outline" onClick={onReportAnother}>
        Report Another Video
      </Button>
    </section>
  );
}
