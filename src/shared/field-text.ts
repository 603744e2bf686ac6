/** Cleaning text into what a request field accepts; no zod here (the landing page's error reporting uses it). */

// eslint-disable-next-line no-control-regex -- removing control characters is the point
const ANY_CONTROL_GLOBAL = /[\u0000-\u001F\u007F]/g;
// eslint-disable-next-line no-control-regex -- the same, keeping tab, line feed and carriage return
const CONTROL_EXCEPT_LINE_BREAKS_GLOBAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** Text a field of that kind accepts: control characters removed (a line break becomes a space on one line), at most `max` characters. */
export function toFieldText(text: string, kind: 'single-line' | 'multi-line', max: number): string {
  const cleaned =
    kind === 'single-line'
      ? text.replace(/[\r\n\t]+/g, ' ').replace(ANY_CONTROL_GLOBAL, '')
      : text.replace(CONTROL_EXCEPT_LINE_BREAKS_GLOBAL, '');
  return cleaned.slice(0, max);
}
