import { type ComponentType, lazy } from 'react';

import type { PageLoader } from './route-modules';

/**
 * React.lazy over a page's loader. A page whose code has already arrived (the entry and boot load the
 * first page before the first render) is handed to lazy() as a thenable that calls back at once, so
 * it renders in the same pass. Handed the import's promise, lazy() would suspend once, show the
 * spinner, and React would then hold the page back for its fallback throttle (300 ms) although
 * nothing was left to load.
 */
export const lazyPage = (load: PageLoader) =>
  lazy(() => {
    const Page = load.loaded;
    if (!Page) return load().then((Loaded) => ({ default: Loaded }));
    const ready = { then: (resolve: (module: { default: ComponentType }) => void) => resolve({ default: Page }) };
    return ready as unknown as Promise<{ default: ComponentType }>;
  });
