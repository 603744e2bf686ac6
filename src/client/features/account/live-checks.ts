import { emailSchema, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../shared/auth';

/**
 * What is wrong with a field as the user types, in a sentence, with the server's rules
 * (src/shared/auth.ts); null when nothing is. An empty field says nothing until the form is sent.
 */
export function newPasswordProblem(value: string, submitted: boolean): string | null {
  if (!value) return submitted ? 'Please enter a new password.' : null;
  if (value.length < PASSWORD_MIN_LENGTH) {
    const missing = PASSWORD_MIN_LENGTH - value.length;
    return `The new password must be at least ${PASSWORD_MIN_LENGTH} characters: ${missing} more to go.`;
  }
  if (value.length > PASSWORD_MAX_LENGTH) {
    return `The new password must be at most ${PASSWORD_MAX_LENGTH} characters.`;
  }
  return null;
}

export function repeatProblem(password: string, repeat: string, submitted: boolean): string | null {
  if (!repeat) return submitted ? 'Please type the new password again.' : null;
  if (!password.startsWith(repeat) || (submitted && repeat !== password)) return 'The two new passwords differ.';
  return null;
}

export function emailProblem(value: string, current: string, submitted: boolean): string | null {
  if (!value.trim()) return submitted ? 'Please enter the new email.' : null;
  const parsed = emailSchema.safeParse(value);
  if (!parsed.success) return submitted ? 'Please enter an email address like name@example.com.' : null;
  if (parsed.data === current) return 'That is already your email.';
  return null;
}

export function requiredProblem(value: string, label: string, submitted: boolean): string | null {
  return submitted && !value ? `Please enter ${label}.` : null;
}

export function firstNameProblem(value: string): string | null {
  if (!value.trim()) return 'Please enter your first name.';
  if (value.trim().length > 100) return 'The first name must be at most 100 characters.';
  return null;
}

export function lastNameProblem(value: string): string | null {
  return value.trim().length > 100 ? 'The last name must be at most 100 characters.' : null;
}
