import { Check, Copy, KeySquare, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';

import {
  type AccessToken,
  type CreatedAccessToken,
  TOKEN_NAME_MAX_LENGTH,
  TOKEN_SCOPE_LABELS,
  TOKEN_SCOPES,
  type TokenScope,
} from '../../../../shared/api-tokens';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeaderRow } from '../../../components/ui/card';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { FormField } from '../../../components/ui/form-field';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useCreateToken, useRevokeToken, useTokens } from '../api/tokens';

const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const DAY_MS = 24 * 60 * 60 * 1000;
const EXPIRY_CHOICES = [
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In a year' },
  { value: 'never', label: 'Never' },
] as const;

/** The account page's personal access tokens: create one (shown once), see them, revoke them. */
export function ApiTokensSection() {
  const tokens = useTokens();
  const [created, setCreated] = useState<CreatedAccessToken | null>(null);
  return (
    <Card>
      <CardHeaderRow icon={<KeySquare aria-hidden="true" />} title="Access tokens" />
      <CardContent className="grid gap-4">
        <CardDescription>
          Let your own programs make and download videos with Reelsmith&apos;s API (
          <code className="text-xs">Authorization: Bearer rs_…</code>). A token does only what its scopes allow and
          never manages your account, payments or tokens.
        </CardDescription>
        {created ? <NewToken token={created} onDone={() => setCreated(null)} /> : null}
        <CreateTokenForm onCreated={setCreated} />
        {tokens.data ? (
          <TokenList tokens={tokens.data} />
        ) : tokens.isError ? (
          <p className="text-sm text-destructive">Your access tokens could not be loaded. Please reload the page.</p>
        ) : (
          <Spinner label="Loading your access tokens" />
        )}
      </CardContent>
    </Card>
  );
}

function NewToken({ token, onDone }: { token: CreatedAccessToken; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const fieldId = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopied(true);
    } catch {
      toast({ variant: 'destructive', title: 'Not Copied', description: 'Select the token and copy it yourself.' });
    }
  }
  return (
    <div
      role="status"
      className="grid gap-3 rounded-lg border border-emerald-500/40 bg-emerald-500/10 p-3 text-sm"
      aria-live="polite"
    >
      <p className="font-medium">Copy your new token “{token.name}” now. You will not be able to see it again.</p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor={fieldId} className="sr-only">
          Your new access token
        </label>
        <input
          id={fieldId}
          readOnly
          value={token.token}
          onFocus={(event) => event.currentTarget.select()}
          className="h-11 min-w-0 flex-1 rounded-lg border border-input bg-background px-3 font-mono text-xs text-foreground"
        />
        <div className="flex gap-2">
          <Button type="button" onClick={() => void copy()} aria-label="Copy token">
            {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />} {copied ? 'Copied' : 'Copy'}
          </Button>
          <Button type="button" variant="outline" onClick={onDone}>
            Done
          </Button>
        </div>
      </div>
    </div>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (token: CreatedAccessToken) => void }) {
  const create = useCreateToken();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Set<TokenScope>>(new Set(['videos:read', 'videos:write', 'uploads:write']));
  const [expiry, setExpiry] = useState<string>('90');
  const [error, setError] = useState<string | null>(null);
  const expiryId = useId();

  function toggle(scope: TokenScope, on: boolean) {
    setScopes((current) => {
      const next = new Set(current);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('Give the token a name, such as the program that will use it.');
    if (scopes.size === 0) return setError('Choose at least one thing the token may do.');
    setError(null);
    const expiresAt = expiry === 'never' ? null : new Date(Date.now() + Number(expiry) * DAY_MS).toISOString();
    create.mutate(
      // In the catalogue's order, whatever order they were ticked in.
      { name: name.trim(), scopes: TOKEN_SCOPES.filter((s) => scopes.has(s)), expiresAt },
      {
        onSuccess: (token) => {
          setName('');
          onCreated(token);
        },
        onError: (failure) => setError(getServerMessage(failure) ?? 'The token was not created. Please try again.'),
      },
    );
  }

  return (
    <form onSubmit={submit} className="grid gap-4 rounded-lg border border-border p-3" noValidate>
      <FormField
        label="Token name"
        name="token-name"
        value={name}
        maxLength={TOKEN_NAME_MAX_LENGTH}
        placeholder="Nightly render script"
        onChange={(event) => setName(event.target.value)}
      />
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">What it may do</legend>
        {TOKEN_SCOPES.map((scope) => (
          <CheckboxField
            key={scope}
            label={
              <>
                {TOKEN_SCOPE_LABELS[scope]} <code className="text-xs text-muted-foreground">{scope}</code>
              </>
            }
            checked={scopes.has(scope)}
            onCheckedChange={(checked) => toggle(scope, checked)}
          />
        ))}
      </fieldset>
      <div className="grid gap-2 sm:max-w-xs">
        <Label htmlFor={expiryId}>Expires</Label>
        <select
          id={expiryId}
          value={expiry}
          onChange={(event) => setExpiry(event.target.value)}
          className="h-11 rounded-lg border border-input bg-background px-3 text-base text-foreground sm:text-sm"
        >
          {EXPIRY_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      {error ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={create.isPending}>
          Create token
        </Button>
      </div>
    </form>
  );
}

function describe(token: AccessToken, now: number): { text: string; expired: boolean } {
  const expires = token.expiresAt ? new Date(token.expiresAt) : null;
  const expired = expires !== null && expires.getTime() <= now;
  const parts = [
    `Created ${DATE.format(new Date(token.createdAt))}`,
    token.lastUsedAt ? `last used ${DATE.format(new Date(token.lastUsedAt))}` : 'never used',
    expires ? `${expired ? 'expired' : 'expires'} ${DATE.format(expires)}` : 'never expires',
  ];
  return { text: parts.join(' · '), expired };
}

function TokenList({ tokens }: { tokens: AccessToken[] }) {
  const revoke = useRevokeToken();
  // When the list was drawn: whether a token has expired is read against it.
  const [now] = useState(() => Date.now());
  if (tokens.length === 0) return <p className="text-sm text-muted-foreground">You have no access tokens.</p>;

  function handleRevoke(token: AccessToken) {
    revoke.mutate(token.id, {
      onSuccess: () => toast({ title: 'Token Revoked', description: `“${token.name}” no longer works.` }),
      onError: (failure) =>
        toast({
          variant: 'destructive',
          title: 'Not Revoked',
          description: getServerMessage(failure) ?? 'Please try again.',
        }),
    });
  }

  return (
    <ul className="grid gap-2" aria-label="Your access tokens">
      {tokens.map((token) => {
        const { text, expired } = describe(token, now);
        return (
          <li
            key={token.id}
            className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border p-3"
          >
            <span className="grid min-w-0 gap-1">
              <span className="flex flex-wrap items-center gap-2">
                <span className="font-medium break-all">{token.name}</span>
                {expired ? <Badge tone="danger">Expired</Badge> : null}
              </span>
              <span className="flex flex-wrap gap-1">
                {token.scopes.map((scope) => (
                  <Badge key={scope} tone="neutral">
                    {scope}
                  </Badge>
                ))}
              </span>
              <span className="text-sm text-muted-foreground">{text}</span>
            </span>
            <Button
              variant="outline"
              size="sm"
              disabled={revoke.isPending}
              onClick={() => handleRevoke(token)}
              aria-label={`Revoke ${token.name}`}
            >
              <Trash2 aria-hidden="true" /> Revoke
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
