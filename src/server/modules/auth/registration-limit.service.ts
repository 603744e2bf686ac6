import type { ServiceContext } from '../../context';
import { tooManyRequests } from '../../lib/app-error';
import * as repo from './auth.repository';

const HOUR_MS = 60 * 60 * 1000;
export const REGISTRATION_DAY_MS = 24 * HOUR_MS;

/** "5 minutes", "1 minute", "3 hours": a wait in words, rounded up so that it is never too short. */
export function describeWait(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes <= 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hours`;
}

/**
 * Runs `register` when the client address is under its registration limits (config
 * `registrationsPerAddress`, per hour and per day), else refuses with 429 and Retry-After. The
 * registration is counted before it runs (so a burst cannot all pass the limit at once) and taken
 * back when it fails (a taken email costs nothing).
 */
export async function withRegistrationLimit<T>(
  ctx: ServiceContext,
  ip: string,
  register: () => Promise<T>,
): Promise<T> {
  const id = await countRegistration(ctx, ip);
  try {
    return await register();
  } catch (error) {
    await repo.deleteLoginFailure(ctx.db, id);
    throw error;
  }
}

async function countRegistration(ctx: ServiceContext, ip: string): Promise<string> {
  const { hour, day } = ctx.config.registrationsPerAddress;
  return ctx.db.transaction(async (tx) => {
    await repo.lockLoginAttempts(tx, repo.REGISTRATIONS_KEY, ip);
    const by = { email: repo.REGISTRATIONS_KEY, ip };
    const ends = [
      await repo.findLockoutEnd(tx, by, hour, HOUR_MS),
      await repo.findLockoutEnd(tx, by, day, REGISTRATION_DAY_MS),
    ].filter((end): end is Date => end !== null);
    const until = Math.max(0, ...ends.map((end) => end.getTime()));
    if (until > 0) {
      const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
      throw tooManyRequests(
        `Too many accounts have been created from your network recently. Please try again in ${describeWait(seconds)}.`,
        seconds,
        'too_many_registrations',
      );
    }
    return repo.insertLoginFailure(tx, repo.REGISTRATIONS_KEY, ip);
  });
}
