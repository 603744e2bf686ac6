import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { modelsConfigFile, PRICED_MODELS } from '../../../../tests/support/models-config';
import { draftChoice } from '../../../shared/drafts';
import type { CreatedGenerationRecord } from '../../../shared/generations';
import type { ModelInfo } from '../../../shared/models';
import { creditLedger, users } from '../../db/schema';

// Drafts (issue 48): `draft: true` makes the request on the cheapest model and resolution the server
// has for it, the generator's own rule (draftChoice over GET /api/models), whatever model it named,
// charged that price. With AI models connected the local preview is no draft; without, it is.
// fal's key is set on one app (no worker runs, so nothing is sent: the jobs stay queued).

const config = modelsConfigFile({ ...PRICED_MODELS, 'fal-veo3.1': { credits: 3 } });
let keyless: TestApp;
let connected: TestApp;
beforeAll(async () => {
  [keyless, connected] = await Promise.all([
    createTestApp({ MODELS_CONFIG: config.file }),
    createTestApp({ MODELS_CONFIG: config.file, FAL_KEY: 'k' }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([keyless.close(), connected.close()]);
  config.remove();
});

async function userOn(t: TestApp) {
  const user = await createUser(t.db, { creditsHundredths: 5000 });
  return { user, cookie: await signIn(t.app, user) };
}
const balanceOf = async (t: TestApp, id: string) =>
  (await t.db.select().from(users).where(eq(users.id, id)))[0]?.creditsHundredths ?? -1;
const catalogue = async (t: TestApp, cookie: string) =>
  (await injectJson(t.app, 'GET', '/api/models', { cookie })).json<{ models: ModelInfo[] }>().models;

const REQUEST = { description: 'A lighthouse at dawn', duration: 8, aspectRatio: '16:9', hasAudio: false } as const;

describe('a draft', () => {
  for (const [name, app] of [
    ['without provider keys', () => keyless],
    ['with fal.ai connected', () => connected],
  ] as const) {
    it(`is made ${name} on the model and resolution the generator shows, at its price, whatever model it named`, async () => {
      const t = app();
      const { user, cookie } = await userOn(t);
      const expected = draftChoice(await catalogue(t, cookie), { ...REQUEST, isEconomy: false });
      expect(expected).not.toBeNull();
      const made = await injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        body: { ...REQUEST, draft: true, model: 'fal-veo3', resolution: '1080p' },
      });
      expect(made.statusCode, made.body).toBe(201);
      const record = made.json<CreatedGenerationRecord>();
      expect(record).toMatchObject({ model: expected?.model.id, isDraft: true });
      expect(record.settings?.resolution).toBe(expected?.resolution);
      expect(record.creditsUsed * 100).toBe(expected?.priceHundredths);
      expect(5000 - (await balanceOf(t, user.id))).toBe(expected?.priceHundredths);
      const ledger = await t.db
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.reference, `generation:${record.id}`));
      expect(ledger.map((entry) => entry.deltaHundredths)).toEqual([-(expected?.priceHundredths ?? 0)]);
      // A take that is not a draft says so.
      const master = await injectJson(t.app, 'POST', '/api/video-generation', { cookie, body: REQUEST });
      expect(master.json<CreatedGenerationRecord>().isDraft).toBe(false);
    });
  }

  it('is the local preview only where no AI model can take the request, and the cheapest AI model otherwise', async () => {
    const { cookie } = await userOn(keyless);
    expect(draftChoice(await catalogue(keyless, cookie), { ...REQUEST, isEconomy: false })).toMatchObject({
      model: { id: 'local' },
      resolution: '480p',
    });
    const { cookie: other } = await userOn(connected);
    const models = await catalogue(connected, other);
    const choice = draftChoice(models, { ...REQUEST, isEconomy: false });
    expect(choice?.model.isPreview).toBe(false);
    // No AI model is cheaper at any of its resolutions.
    for (const model of models.filter((m) => m.available && !m.isPreview)) {
      const alone = draftChoice([model], { ...REQUEST, isEconomy: false });
      if (alone) expect(alone.priceHundredths).toBeGreaterThanOrEqual(choice?.priceHundredths ?? 0);
    }
  });

  it('is refused with a comparison, before any charge', async () => {
    const { user, cookie } = await userOn(connected);
    const answer = await injectJson(connected.app, 'POST', '/api/video-generation', {
      cookie,
      body: { ...REQUEST, draft: true, compareModel: 'fal-veo3' },
    });
    expect([answer.statusCode, answer.json<{ code: string }>().code]).toEqual([400, 'draft_with_compare']);
    expect(await balanceOf(connected, user.id)).toBe(5000);
  });
});
