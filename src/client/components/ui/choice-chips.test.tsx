import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';

import { ChoiceChips } from './choice-chips';

function Crossfade() {
  const [value, setValue] = useState(0);
  return (
    <ChoiceChips
      label="Crossfade"
      value={value}
      onChange={setValue}
      choices={[0, 0.5, 1].map((v) => ({ value: v, label: v === 0 ? 'None' : `${v} s` }))}
    />
  );
}

afterEach(cleanup);

const checked = (name: string) => screen.getByRole<HTMLInputElement>('radio', { name }).checked;

describe('ChoiceChips', () => {
  it('is one group of radios whose arrow keys and clicks move the choice', async () => {
    const user = userEvent.setup();
    render(
      <>
        <button type="button">before</button>
        <Crossfade />
      </>,
    );
    expect(screen.getByRole('radiogroup', { name: 'Crossfade' })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'before' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'None' }));
    await user.keyboard('{ArrowRight}');
    expect(checked('0.5 s')).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: '0.5 s' }));
    await user.keyboard('{ArrowLeft}');
    expect(checked('None')).toBe(true);
    await user.click(screen.getByText('1 s'));
    expect(checked('1 s')).toBe(true);
    expect(checked('None')).toBe(false);
  });
});
