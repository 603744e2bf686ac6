/**
 * Full-page navigations that leave the single-page app (Stripe Checkout, the sign-in page after a
 * lost session). One seam, so tests can watch them: jsdom cannot navigate.
 */
export const browserNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
