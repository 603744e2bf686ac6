import {
  type RemovedWaysIn,
  SECURITY_EVENTS_SHOWN,
  type SecurityEventKind,
  type SecurityEventList,
} from '../../../shared/account-security';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { revokeTokensIn } from '../access-tokens/tokens.service';
import { findUserById, setPasswordHash } from '../users/users.service';
import { removeEndpointsIn } from '../outbound-webhooks/webhooks.service';
import * as auth from './auth.repository';
import * as identities from './identities.repository';
import * as repo from './ways-in.repository';

/**
 * What each event ends of the ways into an account that the person acting did not just create
 * (decision 018 says why). 'unproven' keys are those made while the account's email was unproven
 * (tokens and endpoints record it: `made_while_verified`; every linked sign-in counts): they go only
 * when this event proves the email for the first time (`proves`).
 */
interface Ends {
  sessions: 'all' | 'others' | 'none';
  accessTokens: 'all' | 'unproven' | 'none';
  webhookEndpoints: 'all' | 'unproven' | 'none';
  signIns: 'all' | 'unproven' | 'none';
  resetLinks: boolean;
  emailLinks: 'all' | 'change' | 'none';
  password: boolean;
}

export const WHAT_EACH_EVENT_ENDS: Readonly<Record<SecurityEventKind, Ends>> = {
  // A verified external sign-in takes over an account whose email nobody proved: nothing made before stays.
  hand_over: {
    sessions: 'all',
    accessTokens: 'all',
    webhookEndpoints: 'all',
    signIns: 'all',
    resetLinks: true,
    emailLinks: 'all',
    password: true,
  },
  // "Someone may know my password": every key a password holder could have made ends.
  password_reset: {
    sessions: 'all',
    accessTokens: 'all',
    webhookEndpoints: 'unproven',
    signIns: 'unproven',
    resetLinks: true,
    emailLinks: 'change',
    password: false,
  },
  password_change: {
    sessions: 'others',
    accessTokens: 'all',
    webhookEndpoints: 'none',
    signIns: 'none',
    resetLinks: true,
    emailLinks: 'change',
    password: false,
  },
  email_proven: {
    sessions: 'none',
    accessTokens: 'unproven',
    webhookEndpoints: 'unproven',
    signIns: 'unproven',
    resetLinks: false,
    emailLinks: 'none',
    password: false,
  },
  // Asked for by someone holding the password and a session: ending the other keys would lock out
  // the owner, not a hijacker. The links to the old address end.
  email_change: {
    sessions: 'none',
    accessTokens: 'unproven',
    webhookEndpoints: 'unproven',
    signIns: 'unproven',
    resetLinks: true,
    emailLinks: 'all',
    password: false,
  },
};

export interface EndWaysInOptions {
  /** The browser session of the person acting, kept where the event keeps it ('others'). */
  keepSessionId?: string | null;
  /** Whether this event proves an email that was unproven until now ('unproven' sign-ins go then). */
  proves: boolean;
  /** The sign-in that took the account over, for a hand-over ('Google'). */
  via?: string;
}

/**
 * Ends what `kind` ends (WHAT_EACH_EVENT_ENDS) and records the event with what it removed, for the
 * account page. In the caller's transaction, which holds the user's row lock.
 */
export async function endWaysIn(
  tx: Executor,
  userId: string,
  kind: SecurityEventKind,
  options: EndWaysInOptions,
): Promise<RemovedWaysIn> {
  const ends = WHAT_EACH_EVENT_ENDS[kind];
  const keep = options.keepSessionId ?? null;
  const removed: RemovedWaysIn = {
    sessions:
      ends.sessions === 'all' || (ends.sessions === 'others' && !keep)
        ? await auth.deleteUserSessions(tx, userId)
        : ends.sessions === 'others' && keep
          ? await auth.deleteOtherSessions(tx, userId, keep)
          : 0,
    accessTokens:
      ends.accessTokens === 'all' || (ends.accessTokens === 'unproven' && options.proves)
        ? await revokeTokensIn(tx, userId, ends.accessTokens)
        : 0,
    webhookEndpoints:
      ends.webhookEndpoints === 'all' || (ends.webhookEndpoints === 'unproven' && options.proves)
        ? await removeEndpointsIn(tx, userId, ends.webhookEndpoints)
        : 0,
    signIns:
      ends.signIns === 'all' || (ends.signIns === 'unproven' && options.proves)
        ? (await identities.deleteUserIdentities(tx, userId)).length
        : 0,
    links:
      (ends.resetLinks ? await repo.endResetLinks(tx, userId) : 0) +
      (ends.emailLinks === 'none' ? 0 : await repo.endEmailLinks(tx, userId, ends.emailLinks)),
    password: ends.password && Boolean((await findUserById(tx, userId))?.passwordHash),
  };
  if (removed.password) await setPasswordHash(tx, userId, null);
  await repo.insertSecurityEvent(tx, { userId, kind, via: options.via ?? null, removed });
  return removed;
}

/** The account page's list: the latest events with what each removed. */
export async function listSecurityEvents(ctx: ServiceContext, userId: string): Promise<SecurityEventList> {
  const rows = await repo.listSecurityEvents(ctx.db, userId, SECURITY_EVENTS_SHOWN);
  return {
    events: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      via: row.via,
      removed: row.removed,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}
