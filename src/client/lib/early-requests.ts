// The GETs a page's first screen reads, started by the entry (main.tsx) with the auth check, while
// React, the app and the page's code are still downloading: their answers are then on their way
// (or here) when the app asks, instead of being asked for only once the page has rendered.

const early = new Map<string, Promise<Response>>();

/** Starts a GET of each address, as the API client's GETs send it (cookies, never from the HTTP cache). */
export function beginEarlyGets(urls: readonly string[]): void {
  for (const url of urls) {
    if (early.has(url)) continue;
    const response = fetch(url, { credentials: 'include', cache: 'no-store' });
    // Handled by whoever takes it; never an unhandled rejection if nobody does.
    response.catch(() => undefined);
    early.set(url, response);
  }
}

/** The early answer for `url`, once: the next GET of it asks the server. */
export function takeEarlyGet(url: string): Promise<Response> | undefined {
  const response = early.get(url);
  early.delete(url);
  return response;
}

/**
 * Forgets the answers nobody took. The app's start calls it once the first page has its data (or
 * nobody is signed in), so an answer is never used later, for another account or gone stale.
 */
export function dropEarlyGets(): void {
  early.clear();
}
