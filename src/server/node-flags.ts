/**
 * The Node flags every Reelsmith process starts with: `npm start`, `npm run serve` and `npm run worker`
 * (package.json), the Dockerfile's CMD and compose.yaml's commands, the browser journeys' server and
 * the benchmarks (container-recipe.test.ts checks the first three say the same).
 *
 * `--max-semi-space-size=8`: V8's young generation at most 3 x 8 MB. Since Node 20 its default
 * scales with the memory Node sees at start (nodejs/node#55487): 64 MB semi-spaces on a 24 GB
 * machine, where the web process grew 134 MB of young generation in a burst of work (10,000 live
 * streams opening) and kept it. Measured here with 10,000 streams open (`npm run bench:streams`, one
 * run each): 272 MB over idle with the default, 204 MB at 16, 194 MB at 8; creates a second
 * (`npm run bench:token`, two runs each): 730 and 811 with the default, 805 and 816 at 16, 799 and
 * 769 at 8, within this machine's noise. The size no longer depends on the machine either.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8'] as const;
