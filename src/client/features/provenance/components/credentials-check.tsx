import { FileSearch, ShieldAlert, ShieldCheck, ShieldQuestion } from 'lucide-react';
import { type DragEvent, useId, useRef, useState } from 'react';

import type { CredentialsReport } from '../../../../shared/provenance';
import { MAX_UPLOAD_BYTES } from '../../../../shared/uploads';
import { CredentialsFacts } from '../../../components/provenance/credentials-facts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { getServerMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/utils';
import { useVerifyFile } from '../api/verify-file';

const ACCEPT = 'video/mp4,video/quicktime,image/jpeg,image/png,image/webp,.mp4,.mov';

/** Drop or pick a file; the answer says what its Content Credentials hold. */
export function CredentialsCheck() {
  const verify = useVerifyFile();
  const [name, setName] = useState<string | null>(null);
  const [tooLarge, setTooLarge] = useState(false);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const result = useRef<HTMLDivElement>(null);
  const hintId = useId();

  const check = (file: File | undefined) => {
    if (!file) return;
    setName(file.name);
    setTooLarge(file.size > MAX_UPLOAD_BYTES);
    if (file.size > MAX_UPLOAD_BYTES) return;
    verify.mutate(file, { onSettled: () => requestAnimationFrame(() => result.current?.focus()) });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    check(event.dataTransfer.files[0]);
  };

  return (
    <div className="space-y-5">
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          'flex flex-col items-center gap-3 rounded-lg border-2 border-dashed p-6 text-center',
          dragging ? 'border-primary bg-primary/5' : 'border-border',
        )}
      >
        <FileSearch aria-hidden="true" className="size-8 text-muted-foreground" />
        <p id={hintId} className="text-sm text-muted-foreground">
          Drop a video or picture here, or choose one. MP4, MOV, JPEG, PNG or WebP, up to 50 MB. It is read to check it
          and never kept.
        </p>
        <Button
          type="button"
          onClick={() => input.current?.click()}
          disabled={verify.isPending}
          aria-describedby={hintId}
        >
          {verify.isPending ? 'Checking…' : 'Choose a File'}
        </Button>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            check(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </div>

      <div ref={result} tabIndex={-1} aria-live="polite" className="focus-visible:outline-none">
        {tooLarge ? (
          <p role="alert" className="text-sm text-destructive">
            {name} is larger than the 50 MB limit.
          </p>
        ) : verify.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {getServerMessage(verify.error) ?? 'The file could not be checked. Try again.'}
          </p>
        ) : verify.data && name ? (
          <CredentialsReportView name={name} report={verify.data} />
        ) : null}
      </div>
    </div>
  );
}

function CredentialsReportView({ name, report }: { name: string; report: CredentialsReport }) {
  if (!report.hasCredentials)
    return (
      <section aria-label="Result" className="space-y-2">
        <h2 className="flex items-center gap-2 text-lg font-semibold">
          <ShieldQuestion aria-hidden="true" className="size-5 text-muted-foreground" /> No Content Credentials
        </h2>
        <p className="text-sm text-muted-foreground">
          {name} carries no Content Credentials: nothing in it says how it was made. That does not mean it was or was
          not made by AI.
        </p>
      </section>
    );
  return (
    <section aria-label="Result" className="space-y-4">
      <div className="space-y-2">
        <h2 className="flex items-center gap-2 text-lg font-semibold">
          {report.intact ? (
            <ShieldCheck aria-hidden="true" className="size-5 text-emerald-600 dark:text-emerald-400" />
          ) : (
            <ShieldAlert aria-hidden="true" className="size-5 text-destructive" />
          )}
          {report.intact ? 'Content Credentials intact' : 'Content Credentials broken'}
        </h2>
        <p className="text-sm text-muted-foreground">
          {report.intact
            ? `${name} has not changed since it was signed.`
            : `${name} was changed after it was signed, or its credentials were damaged: what they say no longer describes this file.`}
        </p>
        <div className="flex flex-wrap gap-2">
          <Badge tone={report.intact ? 'success' : 'danger'}>{report.intact ? 'Intact' : 'Altered'}</Badge>
          <Badge tone={report.trusted ? 'success' : 'warning'}>
            {report.trusted ? 'Known signer' : 'Unknown signer'}
          </Badge>
        </div>
      </div>
      <CredentialsFacts report={report} />
    </section>
  );
}
