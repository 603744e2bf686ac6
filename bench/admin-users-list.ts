// GET /api/admin/users over 100,000 users: first page sorted by credits, by credits in the last
// 30 days, and a search. PGlite always; PostgreSQL too when DATABASE_URL is set.
// Run: npx tsx bench/admin-users-list.ts
import { sql } from 'drizzle-orm';
import { createTestApp } from '../tests/support/app';
import { createUser, signIn } from '../tests/support/factories';
import { readEnv } from '../src/server/config';

const USERS = 100_000;

async function median(run: () => Promise<void>, times = 7): Promise<number> {
  await run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[Math.floor(times / 2)] ?? 0;
}

async function benchLeg(leg: 'pglite' | 'postgres'): Promise<void> {
  // The test database factory picks its leg from TEST_DB.
  Object.assign(process.env, { TEST_DB: leg }); // eslint-disable-line no-restricted-properties
  const t = await createTestApp();
  try {
    const admin = await createUser(t.db, { isAdmin: true });
    const cookie = await signIn(t.app, admin);
    const seeded = performance.now();
    await t.db.execute(sql`
      INSERT INTO users (email, first_name, last_name, credits_hundredths, credits_added_hundredths, created_at)
      SELECT 'bench' || g || '@example.com', 'First' || (g % 997), 'Last' || (g % 89), ((g::bigint * 7919) % 100000)::int,
             ((g::bigint * 104729) % 200000)::int, now() - (g || ' seconds')::interval
      FROM generate_series(1, ${USERS}) AS g`);
    await t.db.execute(sql`
      INSERT INTO credit_ledger (user_id, delta_hundredths, balance_after_hundredths, kind, actor, created_at)
      SELECT id, 1000, credits_hundredths, 'purchase', 'bench', now() - ((random() * 60) || ' days')::interval
      FROM users WHERE email LIKE 'bench%' AND random() < 0.3`);
    await t.db.execute(sql`ANALYZE`);
    console.log(`[${leg}] seeded ${USERS} users in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
    const get = (url: string) => async () => {
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    };
    for (const [label, url] of [
      ['first page, default (createdAt desc)', '/api/admin/users'],
      ['first page, sorted by credits desc', '/api/admin/users?sort=availableCredits&order=desc'],
      ['first page, sorted by lifetime credits', '/api/admin/users?sort=totalLifetimeCredits&order=desc'],
      ['first page, sorted by credits last 30 days', '/api/admin/users?sort=creditsLast30Days&order=desc'],
      ['search "first42"', '/api/admin/users?q=first42'],
      ['stats tiles', '/api/admin/stats'],
    ] as const) {
      console.log(`[${leg}] ${label}: ${(await median(get(url))).toFixed(1)} ms (median of 7)`);
    }
  } finally {
    await t.close();
  }
}

await benchLeg('pglite');
if (readEnv().DATABASE_URL) await benchLeg('postgres');
