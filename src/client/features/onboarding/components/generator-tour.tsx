import { CircleHelp } from 'lucide-react';
import { useEffect } from 'react';

import { Button } from '../../../components/ui/button';
import { startTour } from '../start-tour';
import { GENERATOR_TOUR_DELAY_MS } from '../tour-timing';
import { useAuth } from '../../../lib/auth';
import { isTourDone } from '../tour-storage';

/**
 * Screens and Browser timings (docs/product-rules.md): on the generator, the tour appears 1 second after the page mounts unless it
 * was completed, and only once the first-time tour is done (it goes first; two never overlap).
 */
export function GeneratorTourAutoStart() {
  const accountTours = useAuth().user?.completedTours;
  const due = !isTourDone('generator', accountTours) && isTourDone('first-time', accountTours);
  useEffect(() => {
    if (!due) return;
    const timer = setTimeout(() => void startTour('generator'), GENERATOR_TOUR_DELAY_MS);
    return () => clearTimeout(timer);
  }, [due]);
  return null;
}

/** The credits card's 'Show Me How This Works': replays the generator tour at any time. */
export function GeneratorTourButton() {
  return (
    <Button variant="ghost" className="w-full text-muted-foreground" onClick={() => void startTour('generator')}>
      <CircleHelp aria-hidden="true" /> Show Me How This Works
    </Button>
  );
}
