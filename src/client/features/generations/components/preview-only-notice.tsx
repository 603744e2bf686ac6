import { Info } from 'lucide-react';

import { Link } from 'wouter';

import { isPreviewOnly, PREVIEW_ONLY_NOTE } from '../../../../shared/installation';
import type { ModelInfo } from '../../../../shared/models';

/**
 * Above the generator's form on an installation that has only the local preview engine: what a
 * video here will be, before anything is spent, and (to an administrator) how a real model is
 * connected. Nothing while the catalogue loads, or once a real model is there.
 */
export function PreviewOnlyNotice({ models, isAdmin }: { models: ModelInfo[] | undefined; isAdmin: boolean }) {
  if (!models || !isPreviewOnly(models)) return null;
  return (
    <section
      aria-labelledby="preview-only-title"
      className="flex gap-3 rounded-xl border border-amber-500/50 bg-amber-500/10 p-4 text-sm"
    >
      <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-700 dark:text-amber-300" />
      <div className="grid gap-1">
        <h2 id="preview-only-title" className="font-semibold">
          Previews only on this server
        </h2>
        <p>{PREVIEW_ONLY_NOTE}</p>
        {isAdmin ? (
          <p className="text-muted-foreground">
            To make AI video, connect a provider (fal.ai, Replicate, Google Gemini, Kling) or your own ComfyUI in{' '}
            <Link href="/admin/settings" className="font-medium text-primary underline underline-offset-2">
              Settings
            </Link>
            : its key is tried, and the next video uses it.
          </p>
        ) : (
          <p className="text-muted-foreground">
            The person who runs this server can connect a real model; until then a preview is a quick, cheap way to try
            an idea.
          </p>
        )}
      </div>
    </section>
  );
}
