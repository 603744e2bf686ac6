import { FastForward, Repeat2 } from 'lucide-react';

import type { GoneInputKind } from '../../../../shared/generations';
import { Card, CardContent } from '../../../components/ui/card';
import { retentionWords } from '../../../lib/retention';

const GONE_WORDS: Record<Exclude<GoneInputKind, 'referenceImage'>, string> = {
  image: 'image',
  video: 'video',
  audio: 'audio track',
  endImage: 'end frame',
};

/** "image, end frame and 2 reference images": what a Remix could not fill in, in the card's order. */
export function goneWords(gone: readonly GoneInputKind[]): string {
  const references = gone.filter((kind) => kind === 'referenceImage').length;
  const parts = (Object.keys(GONE_WORDS) as (keyof typeof GONE_WORDS)[])
    .filter((kind) => gone.includes(kind))
    .map((kind) => GONE_WORDS[kind]);
  if (references > 0) parts.push(references === 1 ? 'reference image' : `${references} reference images`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}` : (parts[0] ?? '');
}

/** Says what Remix or Continue filled in, above the inputs, and what of the video's inputs is gone. */
export function RemixNotice({ origin, gone = [] }: { origin: 'remix' | 'continue'; gone?: readonly GoneInputKind[] }) {
  const Icon = origin === 'remix' ? Repeat2 : FastForward;
  return (
    <Card role="status" className="border-violet-500/30 bg-violet-500/5">
      <CardContent className="flex items-start gap-3 pt-6 text-sm">
        <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-violet-600 dark:text-violet-400" />
        <p>
          {origin === 'remix' ? (
            <>
              <span className="font-semibold">Remix:</span> the prompt, settings, model and inputs of your video are
              filled in.{' '}
              {gone.length > 0
                ? `Its ${goneWords(gone)} ${gone.length === 1 ? 'is' : 'are'} no longer available (uploads are kept ${retentionWords()}): choose ${gone.length === 1 ? 'it' : 'them'} again to use ${gone.length === 1 ? 'it' : 'them'}.`
                : `Inputs older than ${retentionWords()} are no longer available.`}
            </>
          ) : (
            <>
              <span className="font-semibold">Continue:</span> the last frame of your video is the input image. Describe
              what happens next, then generate.
            </>
          )}
        </p>
      </CardContent>
    </Card>
  );
}
