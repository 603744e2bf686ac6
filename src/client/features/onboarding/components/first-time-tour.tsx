import { useEffect } from 'react';

import { useAuth } from '../../../lib/auth';
import { startTour } from '../start-tour';
import { FIRST_TIME_TOUR_DELAY_MS } from '../tour-timing';
import { isTourDone } from '../tour-storage';

/**
 * Screens and Browser timings (docs/product-rules.md): the first-time tour starts by itself 2 seconds after sign-in, once. Mount it
 * only for a signed-in user; it renders nothing.
 */
export function FirstTimeTour() {
  const accountTours = useAuth().user?.completedTours;
  const done = isTourDone('first-time', accountTours);
  useEffect(() => {
    if (done) return;
    const timer = setTimeout(() => {
      // Still not completed (another tab may have finished it), and the page still has its navigation.
      if (!isTourDone('first-time', undefined) && document.querySelector('[data-tour="nav-create"]'))
        void startTour('first-time');
    }, FIRST_TIME_TOUR_DELAY_MS);
    return () => clearTimeout(timer);
  }, [done]);
  return null;
}
