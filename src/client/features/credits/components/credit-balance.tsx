import { Coins } from 'lucide-react';

import { Spinner } from '../../../components/ui/spinner';
import { formatCredits, useUserStatus } from '../api/get-user-status';

interface CreditBalanceProps {
  enabled: boolean;
  refetchInterval?: number;
}

/** The available credits as a badge; a short note when they cannot be loaded. */
export function CreditBalance({ enabled, refetchInterval }: CreditBalanceProps) {
  const status = useUserStatus({ enabled, refetchInterval });
  if (status.isPending) return <Spinner label="Loading credits" className="[&_svg]:size-5" />;
  if (status.isError) return <p className="text-sm text-muted-foreground">Credits are unavailable right now.</p>;
  return (
    <span className="inline-flex items-center gap-2 rounded-full bg-linear-to-r from-violet-600 to-fuchsia-600 px-3 py-1 text-sm font-semibold text-white">
      <Coins aria-hidden="true" className="size-4" />
      {formatCredits(status.data)}
    </span>
  );
}
