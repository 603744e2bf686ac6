import { afterEach, beforeEach, vi } from 'vitest';

// An unexpected console.error fails the test. A test that expects one calls
// `expectConsoleError()` before the code that logs it.
let expected = 0;
let unexpected: unknown[][] = [];

export function expectConsoleError(count = 1): void {
  expected += count;
}

beforeEach(() => {
  expected = 0;
  unexpected = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (expected > 0) {
      expected -= 1;
      return;
    }
    unexpected.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (unexpected.length > 0) {
    const first = unexpected.map((args) => args.map(String).join(' ')).join('\n');
    throw new Error(`Unexpected console.error:\n${first}`);
  }
});
