/** The attribute the build puts on #root of the prerendered landing page (scripts/prerender-landing.mjs). */
export const LANDING_MARKER = 'data-prerendered-landing';
