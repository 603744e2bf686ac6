import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { type FakeModeration, startFakeModeration } from '../../../../tests/support/fake-moderation';
import { CONTENT_POLICY_CODE, POLICY_RULES } from '../../../shared/moderation';

// Descriptions also sent to the operator's moderation service (MODERATION_API_URL), here a stand-in
// that follows OpenAI's Moderations API documentation (tests/support/fake-moderation.ts).

let fake: FakeModeration;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakeModeration();
  t = await createTestApp({
    MODERATION_API_URL: fake.baseUrl,
    MODERATION_API_KEY: fake.key,
    MODERATION_SEXUAL: 'allow',
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

async function generate(description: string) {
  const user = await createUser(t.db, { creditsHundredths: 1000 });
  const cookie = await signIn(t.app, user);
  return injectJson(t.app, 'POST', '/api/video-generation', {
    cookie,
    body: { description, model: 'local', duration: 2 },
  });
}

describe('the moderation service', () => {
  it('is asked as its documentation says, and refuses what it scores as graphic violence', async () => {
    fake.scoresFor = (text) => (text.includes('aftermath') ? { violence: 0.97, 'violence/graphic': 0.93 } : {});
    const before = fake.requests.length;
    const refused = await generate('The aftermath of the accident, close up');
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ code: string; message: string }>()).toMatchObject({
      code: CONTENT_POLICY_CODE,
      message: expect.stringContaining(POLICY_RULES.violence),
    });
    const sent = fake.requests[before];
    expect(sent?.headers.authorization).toBe(`Bearer ${fake.key}`);
    expect(sent?.body).toEqual({ model: 'omni-moderation-latest', input: ['The aftermath of the accident, close up'] });
    // Violence that is not graphic (a battle, a duel) is not this server's rule.
    fake.scoresFor = () => ({ violence: 0.9, 'violence/graphic': 0.1 });
    expect((await generate('Knights charge across a misty field')).statusCode).toBe(201);
  });

  it('refuses sexual content involving minors even where the operator allows sexual content', async () => {
    fake.scoresFor = () => ({ sexual: 0.95, 'sexual/minors': 0.88 });
    const refused = await generate('An ordinary-sounding description');
    expect(refused.json<{ message: string }>().message).toContain(POLICY_RULES.minors);
    fake.scoresFor = () => ({ sexual: 0.95 });
    expect((await generate('Two adults on a beach at sunset')).statusCode).toBe(201);
  });

  it('makes a flagged description (held for review is logged), and leaves the decision to the local lists when the service fails', async () => {
    fake.scoresFor = () => ({ 'violence/graphic': 0.5 });
    expect((await generate('A tense standoff in an alley')).statusCode).toBe(201);
    fake.scoresFor = () => ({});
    fake.failure = 503;
    expect((await generate('A lighthouse in a storm')).statusCode).toBe(201);
    // The local lists still refuse on their own.
    expect((await generate('A close up full of g0re')).statusCode).toBe(422);
    fake.failure = null;
  });

  it('waits for a silent service at most its time limit, then lets the local lists decide', async () => {
    fake.failure = 'hang';
    const started = Date.now();
    expect((await generate('A quiet lake at dawn')).statusCode).toBe(201);
    expect(Date.now() - started).toBeLessThan(15_000);
    fake.failure = null;
  }, 30_000);
});
