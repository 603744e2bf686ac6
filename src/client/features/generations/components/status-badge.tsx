import { describeStatus, isExpiredVideo } from '../../../../shared/video-display';
import { Badge } from '../../../components/ui/badge';

/**
 * completed green, failed red, anything else yellow; unknown values read 'Unknown'. A completed
 * video past its expiry reads 'Expired' (grey), with when in its title.
 */
export function StatusBadge({
  status,
  expiresAt,
  className,
}: {
  status: string;
  expiresAt?: string | null;
  className?: string;
}) {
  if (expiresAt && isExpiredVideo({ status, expiresAt })) {
    return (
      <Badge tone="neutral" className={className} title={`Deleted at ${new Date(expiresAt).toLocaleString()}`}>
        Expired
      </Badge>
    );
  }
  const { label, tone } = describeStatus(status);
  return (
    <Badge tone={tone} className={className}>
      {label}
    </Badge>
  );
}

/** 'Draft' beside the status of a video made as a draft (on the cheapest model and resolution); nothing otherwise. */
export function DraftBadge({ video, className }: { video: { isDraft?: boolean }; className?: string }) {
  if (!video.isDraft) return null;
  return (
    <Badge tone="brand" className={className}>
      Draft
    </Badge>
  );
}
