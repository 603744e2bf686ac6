import { REGISTRATION_CLOSED_MESSAGE } from './accounts';
import { SUSPENDED_MESSAGE } from './safety';

/** Notices the /login page shows for its `error` and `message` query parameters (docs/product-rules.md, Wording). */
export interface LoginNotice {
  title: string;
  description: string;
  durationMs: number;
  destructive: boolean;
}

export const LOGIN_ERROR_NOTICE_MS = 12_000;
export const LOGIN_MESSAGE_NOTICE_MS = 8_000;

/** The longest text from a page's address that a notice shows. */
export const NOTICE_TEXT_MAX_LENGTH = 200;

/**
 * Text taken from a page's address (anyone can write a link) as a notice may show it: plain text
 * (React never renders it as HTML), control and invisible formatting characters (such as the ones
 * that reverse text) removed, whitespace collapsed, and at most NOTICE_TEXT_MAX_LENGTH characters.
 * Null when nothing is left.
 */
export function plainNoticeText(text: string | null): string | null {
  if (text === null) return null;
  const clean = text
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cn}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const characters = Array.from(clean);
  if (characters.length === 0) return null;
  if (characters.length <= NOTICE_TEXT_MAX_LENGTH) return clean;
  return `${characters.slice(0, NOTICE_TEXT_MAX_LENGTH - 1).join('')}\u2026`;
}

function withDetails(base: string, details: string | null): string {
  return details ? `${base} ${details}` : base;
}

export function loginErrorNotice(error: string, rawDetails: string | null): LoginNotice {
  const details = plainNoticeText(rawDetails);
  const notice = (title: string, description: string): LoginNotice => ({
    title,
    description,
    durationMs: LOGIN_ERROR_NOTICE_MS,
    destructive: true,
  });
  switch (error) {
    case 'google_auth_failed':
      return notice('Google Sign-In Failed', details ?? 'Google sign-in did not complete. Please try again.');
    case 'redirect_uri_mismatch':
      return notice('Configuration Error', 'Sign-in is misconfigured on this server. Please contact support.');
    case 'invalid_credentials':
      return notice(
        'Authentication Error',
        details ?? 'The sign-in provider rejected the credentials. Please try again.',
      );
    case 'oauth_error':
      return notice('OAuth Error', details ?? 'The external sign-in failed. Please try again.');
    case 'no_user':
      return notice('Authentication Error', 'No user information was received from the sign-in provider.');
    case 'login_failed':
      return notice('Login Failed', withDetails('Sign-in could not be completed.', details));
    case 'account_suspended':
      return notice('Account Suspended', SUSPENDED_MESSAGE);
    case 'registration_closed':
      return notice('No New Accounts', REGISTRATION_CLOSED_MESSAGE);
    case 'session_save_failed':
      return notice('Session Error', withDetails('Your session could not be saved.', details));
    default:
      return notice('Authentication Failed', details ?? 'Something went wrong while signing in. Please try again.');
  }
}

export function loginMessageNotice(message: string): LoginNotice {
  return {
    title: 'Authentication Notice',
    description: plainNoticeText(message) ?? '',
    durationMs: LOGIN_MESSAGE_NOTICE_MS,
    destructive: false,
  };
}
