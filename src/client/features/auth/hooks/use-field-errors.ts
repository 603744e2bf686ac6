import { useState } from 'react';

import { browserFieldErrors, type FieldErrors, focusFirstError } from '../field-errors';

/**
 * The sentences shown beside a form's fields. `checkFields` runs the browser's own constraints
 * before sending: it shows what they found, moves focus to the first field with an error, and
 * answers whether the form may be sent.
 */
export function useFieldErrors() {
  const [errors, setErrors] = useState<FieldErrors>({});
  function checkFields(form: HTMLFormElement, required: readonly string[]): boolean {
    const found = browserFieldErrors(form, required);
    setErrors(found);
    if (Object.keys(found).length === 0) return true;
    focusFirstError(form, found);
    return false;
  }
  return { errors, setErrors, checkFields };
}
