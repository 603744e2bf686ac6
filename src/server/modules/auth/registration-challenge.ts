import { createHash } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import { z } from 'zod';
import type { RegistrationChallenge } from '../../../shared/accounts';
import type { ServiceContext } from '../../context';
import { badRequest, notFound } from '../../lib/app-error';
import { markChallengeUsed } from './auth.repository';

/** Long enough to solve on a slow phone and fill in the form, short enough that a stockpile goes stale. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

const payloadSchema = z.object({
  algorithm: z.literal('SHA-256'),
  challenge: z.string().max(200),
  number: z.number().int().min(0),
  salt: z.string().max(500),
  signature: z.string().max(200),
});

function hmacKey(secret: string): string {
  // Its own key, derived from the installation secret like the sign-in flow cookie's.
  return createHash('sha256').update(`registration-challenge:${secret}`).digest('hex');
}

/** A new ALTCHA challenge, signed with the installation secret and expiring in five minutes. */
export async function issueRegistrationChallenge(ctx: ServiceContext): Promise<RegistrationChallenge> {
  const settings = ctx.config.registrationChallenge;
  if (!settings) throw notFound('Registration asks for no challenge on this server.', 'challenge_off');
  const challenge = await createChallenge({
    algorithm: 'SHA-256',
    hmacKey: hmacKey(ctx.secret),
    maxnumber: settings.maxNumber,
    expires: new Date(ctx.now().getTime() + CHALLENGE_TTL_MS),
  });
  return { ...challenge, algorithm: 'SHA-256', maxnumber: challenge.maxnumber ?? settings.maxNumber };
}

function decodePayload(solution: string): z.infer<typeof payloadSchema> | undefined {
  try {
    return payloadSchema.parse(JSON.parse(Buffer.from(solution, 'base64').toString('utf8')));
  } catch {
    return undefined;
  }
}

/**
 * When the challenge is on, refuses a registration (400, nothing written) whose solution is missing,
 * wrong, expired or already used; then marks it used. Does nothing when the challenge is off.
 */
export async function requireRegistrationChallengeSolved(
  ctx: ServiceContext,
  solution: string | undefined,
): Promise<void> {
  if (!ctx.config.registrationChallenge) return;
  if (!solution) {
    throw badRequest('Please wait until this browser has been checked, then try again.', 'challenge_required');
  }
  const payload = decodePayload(solution);
  if (!payload || !(await verifySolution(payload, hmacKey(ctx.secret), false))) {
    throw badRequest('The browser check did not pass. Please try again.', 'challenge_invalid');
  }
  const now = ctx.now().getTime();
  const expiresAt = Number(extractParams(payload).expires) * 1000;
  if (!Number.isFinite(expiresAt) || expiresAt < now) {
    throw badRequest('The browser check has expired. Please try again.', 'challenge_expired');
  }
  // Marked used in the database (one insert, so two requests with one solution cannot both pass, in any process).
  if (
    !(await markChallengeUsed(ctx.db, createHash('sha256').update(payload.salt).digest('hex'), new Date(expiresAt)))
  ) {
    throw badRequest('This browser check was already used. Please try again.', 'challenge_used');
  }
}
