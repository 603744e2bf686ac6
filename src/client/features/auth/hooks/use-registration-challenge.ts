import { useCallback, useEffect, useRef, useState } from 'react';

export type ChallengeState = 'off' | 'checking' | 'ready' | 'failed';

/**
 * The registration's proof of work when the server asks for one: solving starts as the form
 * opens, so it is usually done before the visitor is; `takeSolution` waits for it, hands it over
 * (each is accepted once) and starts the next one for a retry.
 */
export function useRegistrationChallenge(enabled: boolean) {
  // null while checking; set only when a check ends (or restarts after a submit), never by the effect itself.
  const [solved, setSolved] = useState<boolean | null>(null);
  const pending = useRef<Promise<string | null> | null>(null);
  const abort = useRef<AbortController | null>(null);

  const start = useCallback(() => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    const solving = import('../api/solve-challenge')
      .then(({ solveRegistrationChallenge }) => solveRegistrationChallenge(controller.signal))
      .catch(() => null);
    pending.current = solving;
    void solving.then((solution) => {
      if (!controller.signal.aborted) setSolved(solution !== null);
    });
  }, []);

  useEffect(() => {
    if (!enabled) return;
    start();
    return () => abort.current?.abort();
  }, [enabled, start]);

  const takeSolution = useCallback(async (): Promise<string | undefined> => {
    if (!enabled) return undefined;
    if (!pending.current) start();
    const solution = (await pending.current) ?? undefined;
    setSolved(null);
    start();
    return solution;
  }, [enabled, start]);

  const state: ChallengeState = !enabled ? 'off' : solved === null ? 'checking' : solved ? 'ready' : 'failed';
  return { state, takeSolution };
}
