import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';

import { CheckboxField } from './checkbox-field';

function Rule({ disabled = false }: { disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <CheckboxField
      name="registrationOpen"
      label="Anyone may open an account"
      description="Off: no new accounts."
      checked={open}
      disabled={disabled}
      onCheckedChange={setOpen}
    />
  );
}

afterEach(cleanup);

describe('CheckboxField', () => {
  it('is a checkbox named by its label and description, ticked by pressing either', async () => {
    const user = userEvent.setup();
    render(<Rule />);
    // jsdom lays nothing out, so it joins the two lines without the space a browser's block gives.
    const box = screen.getByRole<HTMLInputElement>('checkbox', {
      name: /^Anyone may open an account ?Off: no new accounts\.$/,
    });
    expect(box.name).toBe('registrationOpen');
    await user.click(screen.getByText('Anyone may open an account'));
    expect(box.checked).toBe(true);
    await user.click(screen.getByText('Off: no new accounts.'));
    expect(box.checked).toBe(false);
  });

  it('stays as it is while disabled', async () => {
    const user = userEvent.setup();
    render(<Rule disabled />);
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: /Anyone may open an account/ });
    await user.click(box);
    expect(box.checked).toBe(false);
  });
});
