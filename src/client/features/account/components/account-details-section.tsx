import { UserRound } from 'lucide-react';

import { Card, CardContent, CardHeaderRow } from '../../../components/ui/card';
import { useAuth } from '../../../lib/auth';

const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** The account page's first section: who is signed in. */
export function AccountDetailsSection() {
  const { user } = useAuth();
  if (!user) return null;
  const rows = [
    ['Name', user.displayName],
    ['Email', user.email],
    ['Member since', DATE.format(new Date(user.createdAt))],
  ] as const;
  return (
    <Card>
      <CardHeaderRow icon={<UserRound aria-hidden="true" />} title="Your account" />
      <CardContent>
        <dl className="grid gap-3 text-sm sm:grid-cols-[10rem_1fr]">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="font-medium break-all">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
