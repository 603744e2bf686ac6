import { UserX } from 'lucide-react';

import type { SafetyOwner } from '../../../../shared/safety';
import { Badge } from '../../../components/ui/badge';
import { formatNumber } from '../format';
import { SafetyOwnerActions } from './safety-actions';

const count = (value: number, one: string, many: string) => `${formatNumber(value)} ${value === 1 ? one : many}`;

/** Who made the video: their email, strikes, whether they are suspended, their record, and what can be done. */
export function SafetyOwnerPanel({ owner }: { owner: SafetyOwner | null }) {
  if (!owner) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <UserX aria-hidden="true" className="size-4 shrink-0" /> Its owner's account is gone.
      </p>
    );
  }
  return (
    <section aria-label={`Owner ${owner.email}`} className="space-y-3">
      <div className="space-y-1.5">
        <h4 className="text-xs font-medium text-muted-foreground">Owner</h4>
        <p className="text-sm font-medium break-all">{owner.email}</p>
        <div className="flex flex-wrap gap-1.5">
          {owner.suspended ? <Badge tone="danger">Suspended</Badge> : null}
          <Badge tone={owner.strikes > 0 ? 'warning' : 'neutral'}>{count(owner.strikes, 'strike', 'strikes')}</Badge>
        </div>
      </div>
      <dl className="grid grid-cols-3 gap-2 text-center">
        {[
          { label: owner.videos === 1 ? 'video' : 'videos', value: owner.videos },
          { label: owner.reports === 1 ? 'report' : 'reports', value: owner.reports },
          { label: 'taken down', value: owner.takenDown },
        ].map(({ label, value }) => (
          <div key={label} className="flex flex-col-reverse rounded-lg bg-muted px-2 py-1.5">
            <dt className="text-xs text-muted-foreground">{label}</dt>
            <dd className="text-base font-bold tabular-nums">{formatNumber(value)}</dd>
          </div>
        ))}
      </dl>
      <div className="flex flex-wrap gap-2">
        <SafetyOwnerActions owner={owner} />
      </div>
    </section>
  );
}
