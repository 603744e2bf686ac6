import { ShieldCheck } from 'lucide-react';

import { type SecurityEvent, securityEventRemovals, securityEventTitle } from '../../../../shared/account-security';
import { Card, CardContent, CardDescription, CardHeaderRow } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { useSecurityEvents } from '../api/security-events';

const WHEN = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/**
 * The account page's security activity: each event that ended ways into the account (a verified
 * sign-in taking it over, a password reset or change, proving or changing the email), with what it
 * removed and when (decision 018).
 */
export function SecurityEventsSection() {
  const events = useSecurityEvents();
  return (
    <Card>
      <CardHeaderRow icon={<ShieldCheck aria-hidden="true" />} title="Security activity" />
      <CardContent className="grid gap-4">
        <CardDescription>
          When your account changes hands or passwords, the keys made before stop working: sessions, access tokens,
          webhook endpoints and emailed links. Here is what was removed, and when.
        </CardDescription>
        {events.data ? (
          events.data.events.length > 0 ? (
            <ul className="grid gap-2">
              {events.data.events.map((event) => (
                <EventRow key={event.id} event={event} />
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">Nothing has changed hands on this account yet.</p>
          )
        ) : events.isError ? (
          <p className="text-sm text-destructive">
            Your security activity could not be loaded. Please reload the page.
          </p>
        ) : (
          <Spinner label="Loading your security activity" />
        )}
      </CardContent>
    </Card>
  );
}

function EventRow({ event }: { event: SecurityEvent }) {
  return (
    <li className="grid gap-1 rounded-lg border border-border p-3">
      <span className="font-medium">{securityEventTitle(event)}</span>
      <span className="text-sm text-muted-foreground">
        <time dateTime={event.createdAt}>{WHEN.format(new Date(event.createdAt))}</time> ·{' '}
        {securityEventRemovals(event.removed)}
      </span>
    </li>
  );
}
