import { describeStatus } from '../../../../shared/video-display';
import { Badge } from '../../../components/ui/badge';

/** completed green, failed red, anything else yellow; unknown values read 'Unknown'. */
export function StatusBadge({ status, className }: { status: string; className?: string }) {
  const { label, tone } = describeStatus(status);
  return (
    <Badge tone={tone} className={className}>
      {label}
    </Badge>
  );
}
