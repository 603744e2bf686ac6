// The client's 'zod' (vite.config.ts aliases the bare specifier here). Zod compiles object parsers
// with `new Function` after probing for it; our CSP forbids eval, so the probe shows up as a CSP
// violation in every browser console. Jitless mode skips the probe and the compiler; the same
// parsers run interpreted, which is fast enough for the handful of answers a page parses.
import { config } from 'zod/v4/core';

config({ jitless: true });

export * from 'zod/v4';
export { z, z as default } from 'zod/v4';
