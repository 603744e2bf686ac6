import { registrationChallengeSchema } from '../../../../shared/accounts';
import { apiRequest } from '../../../lib/api-client';

/** How many candidates to hash before letting the page paint and answer input again. */
const BATCH = 500;

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * GET /api/auth/challenge, solved here: the ALTCHA proof of work (find the number whose SHA-256 with
 * the salt is the challenge), answered as the base64 payload the server verifies. Loaded as its own
 * chunk, only on a server that asks for it. Null when no number up to the limit fits.
 */
export async function solveRegistrationChallenge(signal: AbortSignal): Promise<string | null> {
  const response = await apiRequest('GET', '/api/auth/challenge');
  const challenge = registrationChallengeSchema.parse(await response.json());
  for (let number = 0; number <= challenge.maxnumber; number += 1) {
    if (number % BATCH === 0) {
      // The digest is asynchronous but resolves as microtasks; a timer lets the page breathe.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (signal.aborted) return null;
    }
    if ((await sha256Hex(`${challenge.salt}${number}`)) === challenge.challenge) {
      const payload = { ...challenge, number };
      return btoa(JSON.stringify(payload));
    }
  }
  return null;
}
