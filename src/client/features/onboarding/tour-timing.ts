/** Spec section 9: the generator tour shows 1 second after the page mounts. */
export const GENERATOR_TOUR_DELAY_MS = 1000;
/** Spec section 9: the first-time tour starts 2 seconds after sign-in. */
export const FIRST_TIME_TOUR_DELAY_MS = 2000;
