import type { UserStatus } from '../../../shared/auth';
import { formatCount } from '../../../shared/money/price-list';
import { AppShell } from '../../components/layouts/app-shell';
import { useUserStatus } from '../../features/credits/api/get-user-status';
import { useGenerations } from '../../features/generations/api/get-generations';
import {
  DashboardQuickLinks,
  DashboardStorageNotice,
} from '../../features/generations/components/dashboard-quick-links';
import { DashboardStats } from '../../features/generations/components/dashboard-stats';
import { VideoGallery } from '../../features/generations/components/gallery-panel';
import { useAuth } from '../../lib/auth';
import { FinishLink } from '../finish-button';

/** The Available Credits card: '∞ Unlimited' or the number; a dash when the balance cannot be read. */
function creditsText(status: UserStatus | undefined, isError: boolean): string | undefined {
  if (status) return status.isUnlimited ? '∞ Unlimited' : formatCount(status.availableCredits);
  return isError ? '—' : undefined;
}

/**
 * The video dashboard (docs/product-rules.md, Screens): stats, quick links, the storage reminder and the gallery.
 * Videos and credits arrive live (decision 011); only while the stream is down are videos polled
 * every 5 s (while one is unfinished) and the status every 30 s. The balance the spec polls every
 * 10 s is not shown here, so it is not read at all.
 */
export function DashboardPage() {
  const { isAuthenticated } = useAuth();
  const videos = useGenerations();
  const status = useUserStatus({ enabled: isAuthenticated, refetchInterval: 30_000 });
  const shownStatus = status.data;
  return (
    <AppShell title="Video Dashboard" subtitle="Your videos, credits and activity at a glance">
      <div className="grid grid-cols-1 gap-6">
        <DashboardStats videos={videos.data} credits={creditsText(shownStatus, status.isError)} />
        <DashboardQuickLinks unlimited={status.data?.isUnlimited ?? false} />
        <DashboardStorageNotice />
        <VideoGallery
          videos={videos.data}
          isError={videos.isError}
          finishSlot={(video) => <FinishLink video={video} />}
        />
      </div>
    </AppShell>
  );
}
