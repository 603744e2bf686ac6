import { KeyRound, Link2, LockKeyhole, Trash2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useSearch } from 'wouter';

import type { AccountSignIns } from '../../../../shared/accounts';
import { plainNoticeText } from '../../../../shared/login-notices';
import { Badge } from '../../../components/ui/badge';
import { Button, buttonVariants } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeaderRow } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useSignInOptions } from '../../../lib/sign-in-options';
import { useRemoveIdentity, useSignIns } from '../api/sign-ins';

const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** Shows the notice the external sign-in callback left (?linked=… or ?error=…), once, then cleans the address. */
function useLinkNotice(): void {
  const search = useSearch();
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current || !search) return;
    handled.current = true;
    const params = new URLSearchParams(search);
    // Anyone can write a link with ?error=: it is shown only as short plain text.
    const error = plainNoticeText(params.get('error'));
    if (error) toast({ variant: 'destructive', title: 'Sign-in Not Linked', description: error });
    else if (params.get('linked'))
      toast({ title: 'Sign-in Linked', description: 'You can now sign in to this account with it.' });
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.hash);
  }, [search]);
}

/** The account page's ways to sign in: the password and each linked external sign-in, removable but never the last. */
export function SignInMethodsSection() {
  const signIns = useSignIns();
  useLinkNotice();
  return (
    <Card>
      <CardHeaderRow icon={<KeyRound aria-hidden="true" />} title="Ways to sign in" />
      <CardContent className="grid gap-4">
        <CardDescription>Link another sign-in so you can still get in if one stops working.</CardDescription>
        {signIns.data ? (
          <SignInList signIns={signIns.data} />
        ) : signIns.isError ? (
          <p className="text-sm text-destructive">Your sign-ins could not be loaded. Please reload the page.</p>
        ) : (
          <Spinner label="Loading your sign-ins" />
        )}
      </CardContent>
    </Card>
  );
}

function SignInList({ signIns }: { signIns: AccountSignIns }) {
  const options = useSignInOptions();
  const remove = useRemoveIdentity();
  const ways = signIns.identities.length + (signIns.hasPassword ? 1 : 0);
  const linked = new Set(signIns.identities.map((identity) => identity.provider));

  function handleRemove(id: string, name: string) {
    remove.mutate(id, {
      onSuccess: () => toast({ title: 'Sign-in Removed', description: `${name} no longer signs in to this account.` }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Not Removed',
          description: getServerMessage(error) ?? 'Please try again.',
        }),
    });
  }

  return (
    <div className="grid gap-3">
      <ul className="grid gap-2">
        <li className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border p-3">
          <span className="flex items-center gap-3">
            <LockKeyhole aria-hidden="true" className="size-5 text-muted-foreground" />
            <span>
              <span className="block font-medium">Password</span>
              <span className="block text-sm text-muted-foreground">{signIns.hasPassword ? 'Set' : 'Not set'}</span>
            </span>
          </span>
          {options.passwordReset ? (
            <Link href="/forgot-password" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
              {signIns.hasPassword ? 'Change by email' : 'Set by email'}
            </Link>
          ) : null}
        </li>
        {signIns.identities.map((identity) => (
          <li
            key={identity.id}
            className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border p-3"
          >
            <span className="flex min-w-0 items-center gap-3">
              <Link2 aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
              <span className="min-w-0">
                <span className="block font-medium">{identity.providerName}</span>
                <span className="block text-sm break-all text-muted-foreground">
                  {identity.email ?? 'No email shared'} · linked {DATE.format(new Date(identity.createdAt))}
                </span>
              </span>
            </span>
            {ways > 1 ? (
              <Button
                variant="outline"
                size="sm"
                disabled={remove.isPending}
                onClick={() => handleRemove(identity.id, identity.providerName)}
                aria-label={`Remove ${identity.providerName}`}
              >
                <Trash2 aria-hidden="true" /> Remove
              </Button>
            ) : (
              <Badge tone="neutral">Your only way to sign in</Badge>
            )}
          </li>
        ))}
      </ul>
      <LinkButtons
        oidcLabel={!linked.has('oidc') ? (options.oidc?.label ?? null) : null}
        google={options.google && !linked.has('google')}
      />
    </div>
  );
}

/** Linking is a sign-in at the provider while signed in here: the callback links it to this account. */
function LinkButtons({ oidcLabel, google }: { oidcLabel: string | null; google: boolean }) {
  if (!oidcLabel && !google) return null;
  const name = oidcLabel?.replace(/^continue with\s+/i, '');
  return (
    <div className="flex flex-wrap gap-2">
      {oidcLabel ? (
        <a href="/api/login" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          Link {name}
        </a>
      ) : null}
      {google ? (
        <a href="/api/auth/google" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          Link Google
        </a>
      ) : null}
    </div>
  );
}
