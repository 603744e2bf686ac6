import { AudioLines, Film, ImageIcon, type LucideIcon, RefreshCw, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';

import type { UploadKind } from '../../../../shared/uploads';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { formatMediaLength } from '../upload-view';

export interface UploadPreviewProps {
  kind: UploadKind;
  /** The input's name in sentences: 'Image' gives 'Replace image' and '✓ Image Ready'. */
  label: string;
  /** Where the browser can load the file (`uploadViewUrl`); null shows the kind's icon only. */
  url: string | null;
  /** The file's name, or what it is ('Last frame'), when known. */
  name?: string | null;
  /** Opens the same upload dialog as the input's Choose button. */
  onReplace: () => void;
  onRemove: () => void;
  /** While the upload dialog's code loads. */
  replaceBusy?: boolean;
  /** Called on hover or focus of Replace, to load the dialog ahead of the click. */
  onReplaceIntent?: () => void;
  /** The status line; Screens (docs/product-rules.md): '✓ {label} Ready'. */
  status?: ReactNode;
  className?: string;
}

const KIND_ICONS: Record<UploadKind, LucideIcon> = { image: ImageIcon, video: Film, audio: AudioLines };

/** What the browser made of the file: still loading, its length (video, audio) once read, or unreadable. */
type Seen = { state: 'loading' } | { state: 'shown'; length: string | null } | { state: 'failed' };

/**
 * Shows what a request will use: the image itself, a video's first frame and length, an audio
 * file's length; with Replace and Remove (at least 24 px, 44 px on phones, named with the kind).
 */
export function UploadPreview({
  kind,
  label,
  url,
  name,
  onReplace,
  onRemove,
  replaceBusy = false,
  onReplaceIntent,
  status,
  className,
}: UploadPreviewProps) {
  const [seen, setSeen] = useState<{ url: string | null; value: Seen }>({ url, value: { state: 'loading' } });
  // A new file starts over (state reset during render, as React recommends, rather than in an effect).
  if (seen.url !== url) setSeen({ url, value: { state: 'loading' } });
  const current = seen.url === url ? seen.value : { state: 'loading' as const };
  const show = (value: Seen) => setSeen({ url, value });
  const word = label.toLowerCase();
  const length = current.state === 'shown' ? current.length : null;
  const details = [name, length ? `Length ${length}` : null].filter(Boolean).join(' · ');

  return (
    <div
      className={cn(
        // Phones: the picture beside its words, the buttons across below; wider: one column (the three inputs side by side).
        'grid grid-cols-[5rem_minmax(0,1fr)] items-start gap-x-3 gap-y-2 rounded-lg border border-emerald-500/40 bg-emerald-50/60 p-2 sm:grid-cols-1 dark:border-emerald-400/40 dark:bg-emerald-950/30',
        className,
      )}
      data-upload-preview={kind}
    >
      <div className="relative flex size-20 items-center justify-center overflow-hidden rounded-md bg-muted sm:aspect-video sm:h-auto sm:w-full">
        {url && current.state !== 'failed' ? (
          <PreviewMedia kind={kind} url={url} label={label} name={name} onShown={show} />
        ) : null}
        {!url || current.state === 'failed' || kind === 'audio' ? <PreviewIcon kind={kind} /> : null}
      </div>
      <div className="flex min-w-0 flex-col gap-1">
        <p className="text-sm font-semibold text-emerald-800 dark:text-emerald-300">{status ?? `✓ ${label} Ready`}</p>
        {details ? <p className="truncate text-xs text-muted-foreground">{details}</p> : null}
        {current.state === 'failed' ? (
          <p className="text-xs text-muted-foreground">No preview: the file could not be loaded.</p>
        ) : null}
      </div>
      {/* Side by side where they fit, else one under the other: their words are never cut. */}
      <div className="col-span-2 flex flex-wrap gap-2 sm:col-span-1">
        <Button
          variant="outline"
          size="sm"
          className="h-11 flex-1 sm:h-9"
          aria-label={`Replace ${word}`}
          aria-haspopup="dialog"
          aria-busy={replaceBusy || undefined}
          disabled={replaceBusy}
          onPointerEnter={onReplaceIntent}
          onFocus={onReplaceIntent}
          onClick={onReplace}
        >
          <RefreshCw aria-hidden="true" /> Replace
        </Button>
        <Button
          variant="outline"
          size="sm"
          className="h-11 flex-1 text-destructive hover:text-destructive sm:h-9"
          aria-label={`Remove ${word}`}
          onClick={onRemove}
        >
          <Trash2 aria-hidden="true" /> Remove
        </Button>
      </div>
    </div>
  );
}

function PreviewIcon({ kind }: { kind: UploadKind }) {
  const Icon = KIND_ICONS[kind];
  return <Icon aria-hidden="true" className="size-8 text-muted-foreground" />;
}

interface PreviewMediaProps {
  kind: UploadKind;
  url: string;
  label: string;
  name?: string | null | undefined;
  onShown: (seen: Seen) => void;
}

/** The element that loads the file: an image, a video showing its first frame, or an audio element read for its length only. */
function PreviewMedia({ kind, url, label, name, onShown }: PreviewMediaProps) {
  const described = `${label} to use${name ? `: ${name}` : ''}`;
  const failed = () => onShown({ state: 'failed' });
  const lengthOf = (element: HTMLMediaElement) =>
    onShown({ state: 'shown', length: formatMediaLength(element.duration) });
  if (kind === 'image') {
    return (
      <img
        src={url}
        alt={described}
        className="size-full object-contain"
        onLoad={() => onShown({ state: 'shown', length: null })}
        onError={failed}
      />
    );
  }
  if (kind === 'video') {
    // '#t=0.1' makes the browser fetch and paint a first frame as the poster (metadata alone may leave it blank).
    return (
      <video
        src={`${url}#t=0.1`}
        preload="metadata"
        muted
        playsInline
        aria-label={described}
        className="size-full object-contain"
        onLoadedMetadata={(event) => lengthOf(event.currentTarget)}
        onError={failed}
      />
    );
  }
  return (
    <audio
      src={url}
      preload="metadata"
      aria-label={described}
      onLoadedMetadata={(event) => lengthOf(event.currentTarget)}
      onError={failed}
    />
  );
}
