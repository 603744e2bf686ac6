import { z } from 'zod';

/**
 * The optional proof-of-work challenge on registration (ALTCHA, solved in the browser, verified here;
 * no third-party service). Kept apart from config.ts like config-accounts.ts; nothing here reads process.env.
 */
export const registrationChallengeEnv = {
  /** "altcha" asks every registration to solve a small proof of work first; empty or "off" (the default) does not. */
  REGISTRATION_CHALLENGE: z
    .string()
    .optional()
    .transform((v) => v?.trim().toLowerCase() || 'off')
    .pipe(z.enum(['off', 'altcha'], { error: 'must be "altcha" or "off"' })),
  /** The highest number the browser may have to try (it tries half of them on average). */
  REGISTRATION_CHALLENGE_COST: z
    .string()
    .optional()
    .transform((v) => v?.trim() || '50000')
    .pipe(z.coerce.number<string>().int().min(1000).max(10_000_000)),
};

type ChallengeEnv = z.output<z.ZodObject<typeof registrationChallengeEnv>>;

export interface RegistrationChallengeConfig {
  /** The challenge's maxnumber: the browser hashes up to this many candidates, half on average. */
  maxNumber: number;
}

/** The challenge's settings, or undefined when registration asks for none. */
export function readRegistrationChallenge(env: ChallengeEnv): RegistrationChallengeConfig | undefined {
  return env.REGISTRATION_CHALLENGE === 'altcha' ? { maxNumber: env.REGISTRATION_CHALLENGE_COST } : undefined;
}
