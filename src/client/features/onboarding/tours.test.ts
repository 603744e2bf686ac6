import { afterEach, describe, expect, it } from 'vitest';

import { paymentsOff } from '../../lib/installation';
import { tourSteps } from './tours';

const everything = { previewOnly: false, localAssist: false, paymentsOff: false };

afterEach(() => {
  delete document.documentElement.dataset.payments;
});

describe("the tours' words for this installation", () => {
  it('sells credits in dollars only where the server takes payments', () => {
    const selling = tourSteps('first-time', '24 hours', everything)[1];
    expect(selling?.title).toBe('Credits pay for videos');
    expect(selling?.description).toContain('A credit costs $1');

    const notSelling = tourSteps('first-time', '24 hours', { ...everything, paymentsOff: true })[1];
    expect(notSelling?.title).toBe('Credits pay for videos');
    expect(notSelling?.description).not.toContain('$');
    expect(notSelling?.description).toContain(
      'This server does not sell credits: for more, ask the person who runs it.',
    );
  });

  it('reads whether payments are off from the page the server sent', () => {
    expect(paymentsOff()).toBe(false);
    document.documentElement.dataset.payments = 'on';
    expect(paymentsOff()).toBe(false);
    document.documentElement.dataset.payments = 'off';
    expect(paymentsOff()).toBe(true);
  });

  it('fills in the retention', () => {
    const last = tourSteps('first-time', '3 days', everything).at(-1);
    expect(last?.description).toContain('kept for 3 days');
  });
});
