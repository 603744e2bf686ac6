import { act } from '@testing-library/react';
import { Suspense } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';

import { lazyPage } from './lazy-page';
import { pageLoader } from './route-modules';

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
});

function mount(Page: React.ComponentType): HTMLElement {
  const container = document.createElement('div');
  root = createRoot(container);
  // A synchronous act: React renders and commits here, without waiting for any promise.
  act(() =>
    root?.render(
      <Suspense fallback={<p>Loading</p>}>
        <Page />
      </Suspense>,
    ),
  );
  return container;
}

describe('lazyPage', () => {
  it('renders a page whose code has already arrived in the same pass, never showing the fallback', async () => {
    const load = pageLoader(async () => () => <h1>Create Video</h1>);
    await load();

    expect(mount(lazyPage(load)).textContent).toBe('Create Video');
  });

  it('shows the fallback while a page loads, then the page', async () => {
    let arrive: (() => void) | undefined;
    const load = pageLoader(
      () =>
        new Promise((resolve) => {
          arrive = () => resolve(() => <h1>History</h1>);
        }),
    );
    const container = mount(lazyPage(load));
    expect(container.textContent).toBe('Loading');

    await act(async () => arrive?.());
    expect(container.textContent).toBe('History');
    expect(load.loaded).toBeDefined();
  });
});
