import 'driver.js/dist/driver.css';
import './tour.css';

import { type Config, type DriveStep, driver, type PopoverDOM } from 'driver.js';

import { markTourCompleted, type TourId } from './tour-storage';
import { retentionWords } from '../../lib/retention';
import { assistIsLocal, paymentsOff, previewNote } from '../../lib/installation';
import { type TourStep, tourSteps } from './tours';

let running = false;

/** Whether a tour is on screen now (two never overlap). */
export function isTourRunning(): boolean {
  return running;
}

/** The first match that is laid out: nav entries exist twice (phone bar, desktop header), one hidden. */
function firstVisible(selector: string): Element | undefined {
  return Array.from(document.querySelectorAll<HTMLElement>(selector)).find((el) => el.getClientRects().length > 0);
}

function toDriveStep(step: TourStep): DriveStep {
  const target = step.element ? firstVisible(step.element) : undefined;
  return {
    ...(target ? { element: target } : {}),
    popover: { title: step.title, description: step.description, side: 'bottom', align: 'start' },
  };
}

/** Where focus goes when the tour ends: the control that started it, else the page heading. */
function restoreFocus(opener: Element | null) {
  if (opener instanceof HTMLElement && opener.isConnected && opener !== document.body) {
    opener.focus();
    return;
  }
  const heading = document.querySelector<HTMLElement>('main h1');
  if (heading) {
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus();
  }
}

/** Skip Tour in the footer beside driver.js's close cross (labelled), Back hidden on the first step, Next focused. */
function decoratePopover(popover: PopoverDOM, isFirst: boolean, isLast: boolean, skip: () => void) {
  popover.wrapper.setAttribute('aria-modal', 'true');
  // driver.js draws the title as a <header> and the buttons as a <footer>: outside any sectioning
  // element those are the page's banner and contentinfo landmarks, a second of each beside the page's own.
  popover.title.setAttribute('role', 'none');
  popover.footer.setAttribute('role', 'none');
  popover.closeButton.setAttribute('aria-label', 'Close tour');
  popover.previousButton.style.display = isFirst ? 'none' : '';
  if (!isLast) {
    const skipButton = document.createElement('button');
    skipButton.type = 'button';
    skipButton.className = 'driver-popover-footer-btn reelsmith-tour-skip';
    skipButton.textContent = 'Skip Tour';
    skipButton.addEventListener('click', skip);
    popover.footer.insertBefore(skipButton, popover.footer.firstChild);
  }
  // driver.js focuses the first button of the step right after this; Next is the one people want.
  queueMicrotask(() => popover.nextButton.focus());
}

/**
 * driver.js marks the highlighted element with aria-haspopup/expanded/controls, which a plain div
 * may not carry (the popover is a labelled modal dialog anyway), and a step changed mid-animation
 * can leave the previous element marked as highlighted.
 */
function tidyHighlight(active: Element | undefined) {
  for (const element of document.querySelectorAll('.driver-active-element')) {
    if (element !== active) element.classList.remove('driver-active-element', 'driver-no-interaction');
  }
  for (const element of document.querySelectorAll('[aria-controls="driver-popover-content"]')) {
    element.removeAttribute('aria-haspopup');
    element.removeAttribute('aria-expanded');
    element.removeAttribute('aria-controls');
  }
}

/**
 * Runs a tour with driver.js: Skip Tour, Back, Next and Finish, the close cross, arrow keys and Escape,
 * the overlay, focus kept inside the step. Every way out marks it complete at once: driver.js calls
 * onDestroyed only once a step's highlight animation has finished (about 400 ms), so a tour closed
 * sooner would come back on the next page load; the way out is recorded in onDestroyStarted instead,
 * which driver.js calls for every close it starts. Answers false when another tour runs.
 */
export function runTour(id: TourId, options: { onEnd?: () => void } = {}): boolean {
  if (running) return false;
  const installation = { previewOnly: previewNote() !== '', localAssist: assistIsLocal(), paymentsOff: paymentsOff() };
  const steps = tourSteps(id, retentionWords(), installation).map(toDriveStep);
  const opener = document.activeElement;
  running = true;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    running = false;
    markTourCompleted(id);
    // After driver.js has removed its popover and tried its own focus return.
    setTimeout(() => restoreFocus(opener), 0);
    options.onEnd?.();
  };
  const config: Config = {
    steps,
    animate: typeof window.matchMedia === 'function' && !window.matchMedia('(prefers-reduced-motion: reduce)').matches,
    smoothScroll: false,
    allowClose: true,
    // The highlighted control is shown, not used: a click there would leave the tour half-way.
    disableActiveInteraction: true,
    overlayOpacity: 0.6,
    stagePadding: 6,
    stageRadius: 12,
    popoverClass: 'reelsmith-tour',
    showProgress: true,
    progressText: '{{current}} of {{total}}',
    showButtons: ['next', 'previous', 'close'],
    nextBtnText: 'Next',
    prevBtnText: 'Back',
    doneBtnText: 'Finish',
    onPopoverRender: (popover, { driver: tour }) => {
      decoratePopover(popover, tour.isFirstStep(), tour.isLastStep(), () => {
        end();
        tour.destroy();
      });
      // After driver.js finishes marking this step's element.
      queueMicrotask(() => tidyHighlight(tour.getActiveElement()));
    },
    // Escape, the overlay, the close cross and Finish: recorded before driver.js tears down.
    onDestroyStarted: (_element, _step, { driver: tour }) => {
      end();
      tour.destroy();
    },
    // driver.js's teardown ends after its animation and may leave focus on the page's body: give it
    // back where the tour started, unless the person has already put it somewhere.
    onDestroyed: () => {
      end();
      setTimeout(() => {
        if (!document.activeElement || document.activeElement === document.body) restoreFocus(opener);
      }, 0);
    },
  };
  driver(config).drive();
  return true;
}
