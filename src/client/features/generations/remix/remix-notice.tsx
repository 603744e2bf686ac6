import { FastForward, Repeat2 } from 'lucide-react';

import { Card, CardContent } from '../../../components/ui/card';
import { retentionWords } from '../../../lib/retention';

/** Says what Remix or Continue filled in, above the inputs. */
export function RemixNotice({ origin }: { origin: 'remix' | 'continue' }) {
  const Icon = origin === 'remix' ? Repeat2 : FastForward;
  return (
    <Card role="status" className="border-violet-500/30 bg-violet-500/5">
      <CardContent className="flex items-start gap-3 pt-6 text-sm">
        <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-violet-600 dark:text-violet-400" />
        <p>
          {origin === 'remix' ? (
            <>
              <span className="font-semibold">Remix:</span> the prompt, settings, model and inputs of your video are
              filled in. Inputs older than {retentionWords()} are no longer available.
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
