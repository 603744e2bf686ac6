import { useEffect } from 'react';

import { cleanupFiles } from '../api/cleanup-files';

/** Retention (docs/product-rules.md): cleanup every 10 minutes. */
export const CLEANUP_INTERVAL_MS = 10 * 60 * 1000;

/** Asks the server to sweep expired files on mount and then every 10 minutes; failures are only logged. */
export function useFilesCleanup(): void {
  useEffect(() => {
    const run = () => {
      cleanupFiles().catch((error: unknown) => console.warn('File cleanup failed.', error));
    };
    run();
    const timer = setInterval(run, CLEANUP_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);
}
