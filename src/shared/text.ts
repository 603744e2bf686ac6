import { z } from 'zod';

/**
 * What every text field of a request accepts. PostgreSQL refuses NUL in text and JSON outright (a
 * 500 if it gets that far), and no other C0 control character (nor DEL) belongs in what people type
 * or paste: refusing them at the edge keeps them out of the database, the logs and other screens.
 * Tabs and line breaks stay allowed where text is legitimately multi-line (descriptions, stacks).
 */
export const CONTROL_CHARACTERS_MESSAGE = 'must not contain control characters';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ANY_CONTROL = /[\u0000-\u001F\u007F]/;
// eslint-disable-next-line no-control-regex -- the same, less tab (09), line feed (0A) and carriage return (0D)
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** True when the text holds a control character a field of that kind refuses. */
export function hasControlCharacters(text: string, kind: 'single-line' | 'multi-line'): boolean {
  return (kind === 'single-line' ? ANY_CONTROL : CONTROL_EXCEPT_LINE_BREAKS).test(text);
}

/**
 * For names, emails, ids, urls, search and the like: no control character at all.
 * Add it last in the chain, after `.trim()`, so a pasted trailing newline is trimmed, not refused:
 * `z.string().trim().max(100).check(singleLine)`.
 */
export const singleLine = z.refine<string>(
  (text) => !hasControlCharacters(text, 'single-line'),
  CONTROL_CHARACTERS_MESSAGE,
);

/** For descriptions, prompts and error stacks: tab, line feed and carriage return allowed, nothing else. */
export const multiLine = z.refine<string>(
  (text) => !hasControlCharacters(text, 'multi-line'),
  CONTROL_CHARACTERS_MESSAGE,
);

// In its own zod-free file so the landing page's error reporting does not load zod.
export { toFieldText } from './field-text';
