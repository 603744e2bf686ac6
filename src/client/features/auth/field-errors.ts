import { ApiError } from '../../lib/api-client';

export type FieldErrors = Partial<Record<string, string>>;

const FIELD_NAMES: Record<string, string> = {
  email: 'Email',
  password: 'Password',
  firstName: 'First name',
  lastName: 'Last name',
};

/**
 * Plain sentences for what the browser's own constraints found (type=email, required, minLength),
 * read from each named input's validity instead of the browser's bubbles.
 */
export function browserFieldErrors(form: HTMLFormElement, required: readonly string[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement) || !element.name) continue;
    const name = FIELD_NAMES[element.name] ?? element.name;
    const value = element.value.trim();
    if (!value && required.includes(element.name)) errors[element.name] = `Please enter your ${name.toLowerCase()}.`;
    else if (value && element.type === 'email' && element.validity.typeMismatch) {
      errors[element.name] = 'Please enter an email address like name@example.com.';
    } else if (value && element.minLength > 0 && element.value.length < element.minLength) {
      errors[element.name] = `${name} must be at least ${element.minLength} characters.`;
    } else if (element.maxLength > 0 && element.value.length > element.maxLength) {
      errors[element.name] = `${name} must be at most ${element.maxLength} characters.`;
    }
  }
  return errors;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * The server's validation answer ("password: must be at least 8 characters; email: ...") as plain
 * sentences beside the fields ("Password must be at least 8 characters.").
 */
export function serverFieldErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiError) || error.code !== 'validation_failed' || !error.serverMessage) return {};
  const errors: FieldErrors = {};
  for (const part of error.serverMessage.split('; ')) {
    const match = /^(\w+): (.+)$/.exec(part);
    if (!match?.[1] || !match[2]) continue;
    const name = FIELD_NAMES[match[1]];
    if (name) errors[match[1]] = sentence(`${name} ${match[2]}`);
  }
  return errors;
}

/** Moves focus to the first field with an error, as the browser would. */
export function focusFirstError(form: HTMLFormElement, errors: FieldErrors): void {
  const first = Array.from(form.elements).find(
    (element) => element instanceof HTMLInputElement && errors[element.name],
  );
  if (first instanceof HTMLInputElement) first.focus();
}
