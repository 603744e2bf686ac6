import { type CredentialsReport, sourceTypeLabel } from '../../../shared/provenance';

const formatTime = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/**
 * What a file's Content Credentials say, for people: who and what made it, when, from which inputs,
 * and what failed validation. The /verify page's answer and the player's mark both show it.
 */
export function CredentialsFacts({ report }: { report: CredentialsReport }) {
  const facts: [string, string | null][] = [
    ['Made with', report.model],
    ['What it is', sourceTypeLabel(report.sourceType)],
    ['When', report.signedAt ? formatTime(report.signedAt) : null],
    ['Signed by', report.signedBy ? `${report.signedBy}${report.trusted ? '' : ' (unknown signer)'}` : null],
    ['Issued by', report.issuer],
    ['Where', report.installation],
    ['Written by', report.madeWith],
  ];
  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        {facts
          .filter((fact): fact is [string, string] => fact[1] !== null)
          .map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="min-w-0 font-medium break-words">{value}</dd>
            </div>
          ))}
      </dl>
      {report.ingredients.length > 0 ? (
        <div className="space-y-1.5">
          <h3 className="text-sm font-semibold">Made from</h3>
          <ul className="space-y-1.5 text-sm">
            {report.ingredients.map((ingredient, index) => (
              <li key={`${ingredient.title}-${index}`} className="rounded-md bg-muted px-3 py-2">
                <span className="font-medium">{ingredient.title}</span>
                <span className="text-muted-foreground">
                  {' '}
                  · {ingredient.relationship === 'parentOf' ? 'the video it was made from' : 'an input'}
                  {ingredient.hasCredentials ? ' · with its own credentials' : ''}
                </span>
                {ingredient.sha256 ? (
                  <span className="block font-mono text-xs break-all text-muted-foreground">
                    SHA-256 {ingredient.sha256}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {report.edits.length > 0 ? (
        <div className="space-y-1.5">
          <h3 className="text-sm font-semibold">Done to it afterwards</h3>
          <ul className="list-disc space-y-1 pl-5 text-sm">
            {report.edits.map((edit, index) => (
              <li key={`${edit.action}-${index}`}>
                {edit.description ?? edit.action}
                {edit.by ? <span className="text-muted-foreground"> · {edit.by}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {report.problems.length > 0 ? (
        <div className="space-y-1.5">
          <h3 className="text-sm font-semibold">What failed</h3>
          <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
            {report.problems.map((problem) => (
              <li key={problem.code}>
                {problem.explanation || problem.code} <span className="font-mono text-xs">({problem.code})</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
