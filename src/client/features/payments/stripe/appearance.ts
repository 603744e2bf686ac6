import type { Appearance } from '@stripe/stripe-js';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Whether the page is dark: the theme follows the system (see index.css). */
export function prefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

/** Calls back when the system theme changes; returns the unsubscribe. */
export function onThemeChange(callback: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener('change', callback);
  return () => query.removeEventListener('change', callback);
}

/** The Payment Element in the app's colours: Stripe's light theme or 'night', with the violet accent. */
export function stripeAppearance(dark: boolean): Appearance {
  return {
    theme: dark ? 'night' : 'stripe',
    variables: {
      colorPrimary: dark ? '#a78bfa' : '#7c3aed',
      colorBackground: dark ? '#1c1a2b' : '#ffffff',
      colorDanger: dark ? '#f87171' : '#dc2626',
      borderRadius: '8px',
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    },
  };
}
