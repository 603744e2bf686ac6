import { useSyncExternalStore } from 'react';

/** Screens (docs/product-rules.md): set once the person dismisses the install banner; it is not shown again. */
export const INSTALL_DISMISSED_KEY = 'reelsmith:install-dismissed';

/** Chromium's install offer (not in the DOM typings). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

interface InstallState {
  /** The browser offered installation and the offer is unused. */
  canPrompt: boolean;
  /** Installed during this visit, or running as the installed app. */
  installed: boolean;
}

let deferred: BeforeInstallPromptEvent | null = null;
let state: InstallState = { canPrompt: false, installed: false };
const listeners = new Set<() => void>();

function update(next: Partial<InstallState>) {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

/** Already running as an installed app (Android, desktop, iOS home screen). */
export function isStandalone(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return (
    iosStandalone ||
    (typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches)
  );
}

/**
 * Keeps the browser's install offer for our own button and banner. Called once at start (main.tsx):
 * the event fires once, early, whatever page is showing.
 */
export function listenForInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferred = event as BeforeInstallPromptEvent;
    update({ canPrompt: true });
  });
  window.addEventListener('appinstalled', () => {
    deferred = null;
    update({ canPrompt: false, installed: true });
  });
}

/** Shows the browser's install dialog; 'unavailable' when the browser made no offer (show the help instead). */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const offer = deferred;
  if (!offer) return 'unavailable';
  deferred = null;
  update({ canPrompt: false });
  await offer.prompt();
  const { outcome } = await offer.userChoice;
  if (outcome === 'accepted') update({ installed: true });
  return outcome;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useInstallState(): InstallState & { standalone: boolean } {
  const current = useSyncExternalStore(subscribe, () => state);
  return { ...current, standalone: isStandalone() };
}

export function isInstallDismissed(): boolean {
  try {
    return window.localStorage.getItem(INSTALL_DISMISSED_KEY) === 'true';
  } catch {
    return false;
  }
}

export function rememberInstallDismissed(): void {
  try {
    window.localStorage.setItem(INSTALL_DISMISSED_KEY, 'true');
  } catch {
    // Blocked storage: the banner may come back on a later visit.
  }
}
