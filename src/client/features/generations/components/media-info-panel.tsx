import { Clock, Download, type LucideIcon, MonitorPlay } from 'lucide-react';
import type { ReactNode } from 'react';

import { Card } from '../../../components/ui/card';
import { retentionWords } from '../../../lib/retention';

/** Screens and Retention (docs/product-rules.md): the storage time (VIDEO_RETENTION_HOURS), how to download, and the advertised playback formats. */
export function MediaInfoPanel() {
  const words = retentionWords();
  return (
    <Card role="region" aria-labelledby="media-info-heading" className="@container p-4 sm:p-6">
      <h2 id="media-info-heading" className="text-base font-semibold">
        About your videos
      </h2>
      <div className="mt-4 grid gap-5 @2xl:grid-cols-3 @2xl:gap-6">
        <InfoBlock icon={Clock} title={`Stored for ${words}`} tone="bg-amber-500/15 text-amber-700 dark:text-amber-300">
          Videos are deleted automatically {words} after they are made. Each video shows how long it has left, so
          download the ones you want to keep.
        </InfoBlock>
        <InfoBlock icon={Download} title="How to download" tone="bg-violet-500/15 text-violet-700 dark:text-violet-300">
          Select a completed video and press Download. It is saved as an MP4 file; on a phone it goes to your Downloads
          or Files app.
        </InfoBlock>
        <InfoBlock
          icon={MonitorPlay}
          title="Playback formats"
          tone="bg-fuchsia-500/15 text-fuchsia-700 dark:text-fuchsia-300"
        >
          <ul className="grid gap-1">
            <li>
              <span className="font-medium text-foreground">MP4</span> (H.264, H.265)
            </li>
            <li>
              <span className="font-medium text-foreground">WebM</span> (VP8, VP9)
            </li>
            <li>
              <span className="font-medium text-foreground">OGG</span> (Theora)
            </li>
          </ul>
          <p className="mt-2">If a video will not play here, download it and play it on your device.</p>
        </InfoBlock>
      </div>
    </Card>
  );
}

function InfoBlock({
  icon: Icon,
  title,
  tone,
  children,
}: {
  icon: LucideIcon;
  title: string;
  tone: string;
  children: ReactNode;
}) {
  return (
    <section className="flex gap-3">
      <span className={`flex size-9 shrink-0 items-center justify-center rounded-lg ${tone}`}>
        <Icon aria-hidden="true" className="size-4.5" />
      </span>
      <div className="grid content-start gap-1">
        <h3 className="text-sm font-semibold">{title}</h3>
        <div className="text-sm text-muted-foreground">{children}</div>
      </div>
    </section>
  );
}
