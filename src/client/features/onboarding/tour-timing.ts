/** Browser timings (docs/product-rules.md): the generator tour shows 1 second after the page mounts. */
export const GENERATOR_TOUR_DELAY_MS = 1000;
/** Browser timings (docs/product-rules.md): the first-time tour starts 2 seconds after sign-in. */
export const FIRST_TIME_TOUR_DELAY_MS = 2000;
