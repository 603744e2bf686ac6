import { Clapperboard, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';

import { AppShell } from '../../components/layouts/app-shell';
import { NoticeCard } from '../../components/layouts/notice-card';
import { buttonVariants } from '../../components/ui/button';
import { MediaInputCard, type MediaInputValue } from '../../features/uploads/components/media-input-card';
import { useAuth } from '../../lib/auth';

const INPUT_LABELS = [
  ['image', 'Image'],
  ['video', 'Video'],
  ['audio', 'Audio'],
] as const;

/** 'Image and Audio ready', or a hint while nothing is uploaded. */
function readyLine(media: MediaInputValue): string {
  const ready = INPUT_LABELS.filter(([kind]) => media[kind]).map(([, label]) => label);
  if (ready.length === 0) return 'No media uploaded yet. All three inputs are optional.';
  const list = ready.length === 1 ? ready[0] : `${ready.slice(0, -1).join(', ')} and ${ready.at(-1)}`;
  return `Ready for your video: ${list}.`;
}

/** The Create Video screen: media uploads work; generation is still being set up on the server. */
export function GeneratorPage() {
  const { user } = useAuth();
  const [media, setMedia] = useState<MediaInputValue>({});
  return (
    <AppShell title="Create Video" subtitle="Upload and describe">
      {user?.isAdmin ? (
        <div className="-mt-2 mb-6">
          <Link href="/admin" className={buttonVariants({ variant: 'outline' })}>
            <ShieldCheck aria-hidden="true" /> Admin Dashboard
          </Link>
        </div>
      ) : null}
      <div className="grid gap-6">
        <div className="grid gap-2">
          <MediaInputCard value={media} onChange={setMedia} />
          <p aria-live="polite" className="px-1 text-sm text-muted-foreground">
            {readyLine(media)}
          </p>
        </div>
        <NoticeCard
          tone="brand"
          icon={<Clapperboard aria-hidden="true" />}
          title="Video generation is coming soon"
          description="Uploading media works now: your image, video and audio are stored and ready. Describing and generating videos will appear here soon. Meanwhile your account and credits are ready on the dashboard."
          action={
            <Link href="/dashboard" className={buttonVariants({ variant: 'brand' })}>
              Go to Dashboard
            </Link>
          }
        />
      </div>
    </AppShell>
  );
}
