import { Star } from 'lucide-react';

import { cn } from '../../../lib/utils';

const MAX_RATING = 5;

export function StarRating({ rating }: { rating: number }) {
  return (
    <div role="img" aria-label={`${rating} out of ${MAX_RATING} stars`} className="flex gap-0.5">
      {Array.from({ length: MAX_RATING }, (_, index) => (
        <Star
          key={index}
          aria-hidden="true"
          className={cn('size-4', index < rating ? 'fill-amber-400 text-amber-400' : 'text-muted-foreground/40')}
        />
      ))}
    </div>
  );
}
