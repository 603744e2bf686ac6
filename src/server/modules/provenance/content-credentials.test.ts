import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../../tests/support/app';
import { uploadFile } from '../../../../tests/support/factories';
import { independentlyRead } from '../../../../tests/support/credentials';
import { type FakeFal, startFakeFal } from '../../../../tests/support/fake-fal';
import { makeClip, makeMediaFixtures } from '../../../../tests/support/media';
import type { CreatedGenerationRecord, GenerationRecord } from '../../../shared/generations';
import type { CredentialsReport } from '../../../shared/provenance';
import { extendVideo, followJob, payingUser, startGeneration, startPipeline } from '../../../../tests/support/pipeline';
import { type ManifestPlan, readCredentials, signVideo } from '../../provenance/c2pa';
import { anchorPemOf, certificatesFromPem, makeInstallationIdentity } from '../../provenance/identity';
import { summarise } from '../../provenance/summary';
import { GENERATION_ASSERTION, SOURCE_TYPES, videoSigner } from './provenance.service';
import { keepInstallationIdentity } from './signing-identity.repository';

// Every stored video carries signed Content Credentials (issue 42), read back here by an independent
// C2PA implementation: TrustNXT's pure-TypeScript c2pa-ts (the signer is the CAI's c2pa-rs).

const PHOTO = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png'));
const PUBLIC_URL = 'https://reelsmith.example';

let fal: FakeFal;
let t: TestApp;
let stop: () => Promise<void>;

beforeAll(async () => {
  const { video } = await makeMediaFixtures();
  fal = await startFakeFal(video);
  fal.stepMs = 30;
  ({ t, stop } = await startPipeline({ FAL_KEY: fal.key, FAL_BASE_URL: fal.baseUrl, PUBLIC_URL }));
}, 120_000);
afterAll(async () => {
  await stop();
  await fal.close();
});

async function storedVideo(key: string | null | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await t.ctx.storage.read(key ?? '')) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

let signedVideo: { bytes: Buffer; altered: Buffer; photoHash: string } | undefined;

/** POST /api/provenance/verify with `bytes` as the body, signed out. */
function verify(bytes: Buffer, contentType = 'video/mp4') {
  return t.app.inject({
    method: 'POST',
    url: '/api/provenance/verify',
    headers: { 'content-type': contentType, origin: PUBLIC_URL },
    payload: bytes,
  });
}

/** A manifest another program writes: a camera's clip, with that program's name. */
const foreignPlan = (program: string): ManifestPlan => ({
  definition: {
    claim_generator_info: [{ name: program, version: '3.1' }],
    title: 'harbour.mp4',
    format: 'video/mp4',
    assertions: [
      {
        label: 'c2pa.actions.v2',
        data: {
          actions: [
            {
              action: 'c2pa.created',
              when: '2026-11-01T09:30:00.000Z',
              digitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture',
            },
          ],
        },
      },
    ],
  },
  ingredients: [],
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('Content Credentials on every stored video', () => {
  it('signs a local render made from a photo: valid, algorithmic media, the photo by its hash; one changed byte breaks it', async () => {
    const { cookie } = await payingUser(t, 100_000);
    const record = await startGeneration(t, cookie, {
      model: 'local',
      imageFile: await uploadFile(t.app, cookie, PHOTO),
      resolution: '480p',
      duration: 2,
    });
    const { row } = await followJob(t, record.id, 120_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    const video = await storedVideo(row?.outputKey);

    const read = await independentlyRead(video);
    expect(read?.failures).toEqual([]);
    expect(read?.valid).toBe(true);
    expect(read?.actions).toEqual([
      expect.objectContaining({ action: 'c2pa.created', digitalSourceType: SOURCE_TYPES.algorithmic }),
    ]);
    expect(read?.ingredients).toEqual([
      expect.objectContaining({ relationship: 'inputTo', instanceID: `sha256:${sha256(PHOTO)}` }),
    ]);

    // c2pa-rs reads the same, with the model, provider and installation, and no description.
    const store = await readCredentials({ bytes: video }, 'video/mp4');
    const active = store?.manifests?.[store.active_manifest ?? ''] as {
      assertions: { label: string; data: unknown }[];
      claim_generator_info: { name: string; version: string }[];
    };
    expect(active.claim_generator_info[0]).toMatchObject({ name: 'Reelsmith', version: expect.any(String) });
    expect(active.assertions.find((assertion) => assertion.label === GENERATION_ASSERTION)?.data).toEqual({
      installation: PUBLIC_URL,
      generationId: record.id,
      model: 'local',
      modelName: expect.any(String),
      provider: 'local',
      inputs: [{ kind: 'image', format: 'image/png', sha256: sha256(PHOTO) }],
    });

    // One byte of the picture changed: the hash of the media data no longer matches, for both readers.
    const altered = Buffer.from(video);
    const mdat = altered.indexOf('mdat');
    altered[mdat + 200] = (altered[mdat + 200] ?? 0) ^ 0xff;
    const alteredRead = await independentlyRead(altered);
    expect(alteredRead?.valid).toBe(false);
    expect(alteredRead?.failures).toContain('assertion.bmffHash.mismatch');
    const alteredStore = await readCredentials({ bytes: altered }, 'video/mp4');
    expect(JSON.stringify(alteredStore?.validation_results)).toContain('assertion.bmffHash.mismatch');
    signedVideo = { bytes: video, altered, photoHash: sha256(PHOTO) };

    // The record carries what the stored file's credentials say (the player's mark), read back from it.
    const list = await injectJson(t.app, 'GET', '/api/video-generation', { cookie });
    const shown = list.json<GenerationRecord[]>().find((item) => item.id === record.id);
    expect(shown?.credentials).toMatchObject({
      hasCredentials: true,
      intact: true,
      trusted: true,
      sourceType: 'algorithmicMedia',
      installation: PUBLIC_URL,
      ingredients: [{ relationship: 'inputTo', sha256: sha256(PHOTO), format: 'image/png' }],
    });
  }, 150_000);

  it("signs a provider's render as trained algorithmic media, and an Extend with its original as the parent ingredient", async () => {
    const { cookie } = await payingUser(t, 100_000);
    const record = await startGeneration(t, cookie, { model: 'fal-kling-2.5-turbo' });
    const { row } = await followJob(t, record.id, 60_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    const original = await storedVideo(row?.outputKey);
    const read = await independentlyRead(original);
    expect(read?.valid).toBe(true);
    expect(read?.actions[0]).toMatchObject({ action: 'c2pa.created', digitalSourceType: SOURCE_TYPES.trained });

    const local = await startGeneration(t, cookie, { model: 'local', resolution: '480p', duration: 2 });
    expect((await followJob(t, local.id, 120_000)).row?.status).toBe('completed');
    const extension = await extendVideo(t, cookie, local.id, { prompt: 'The camera keeps going', duration: 2 });
    const extended = (await followJob(t, extension.id, 120_000)).row;
    expect(extended?.status, extended?.errorMessage ?? '').toBe('completed');
    const joined = await independentlyRead(await storedVideo(extended?.outputKey));
    expect(joined?.failures).toEqual([]);
    expect(joined?.actions[0]).toMatchObject({ digitalSourceType: SOURCE_TYPES.compositeSynthetic });
    // The original as the parent (with its own manifest), and the last frame the continuation started from.
    expect(joined?.ingredients.map((ingredient) => ingredient.relationship).sort()).toEqual(['inputTo', 'parentOf']);
    expect(extended?.credentials?.ingredients.find((i) => i.relationship === 'parentOf')?.hasCredentials).toBe(true);
  }, 240_000);

  it('signs each video of a variation group with its own manifest', async () => {
    const { cookie } = await payingUser(t, 100_000);
    const first = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt: 'A lighthouse at dusk', model: 'local', resolution: '480p', duration: 2, variations: 2 },
    });
    expect(first.statusCode, first.body).toBe(201);
    const group = first.json<CreatedGenerationRecord>().group;
    expect(group).toHaveLength(2);
    const ids = new Set<string>();
    for (const member of group) {
      const { row } = await followJob(t, member.id, 120_000);
      expect(row?.status, row?.errorMessage ?? '').toBe('completed');
      const read = await independentlyRead(await storedVideo(row?.outputKey));
      expect(read?.failures).toEqual([]);
      const store = await readCredentials({ bytes: await storedVideo(row?.outputKey) }, 'video/mp4');
      const active = store?.manifests?.[store.active_manifest ?? ''] as {
        assertions: { label: string; data: { generationId?: string } }[];
      };
      ids.add(active.assertions.find((assertion) => assertion.label === GENERATION_ASSERTION)?.data.generationId ?? '');
    }
    expect(ids).toEqual(new Set(group.map((member) => member.id)));
  }, 240_000);

  it('keeps one installation signer: processes that race to make it all sign with the first one kept', async () => {
    const [first, second] = await Promise.all([
      makeInstallationIdentity(PUBLIC_URL).then((identity) => keepInstallationIdentity(t.db, identity)),
      makeInstallationIdentity(PUBLIC_URL).then((identity) => keepInstallationIdentity(t.db, identity)),
    ]);
    expect(second).toEqual(first);
    // Another process's context (a worker beside the web process) reads the same signer.
    const web = await videoSigner(t.ctx);
    const worker = await videoSigner({ ...t.ctx });
    expect(worker.certificates).toEqual(web.certificates);
    expect(web.certificates).toEqual(certificatesFromPem(first.certificateChainPem));
  });

  it('answers anyone who sends a file what its credentials say: signed and intact, altered, none; refuses what it cannot read', async () => {
    if (!signedVideo) throw new Error('the first test makes the signed video');
    const signed = await verify(signedVideo.bytes);
    expect(signed.statusCode, signed.body).toBe(200);
    const report = signed.json<CredentialsReport>();
    expect(report).toMatchObject({
      hasCredentials: true,
      intact: true,
      trusted: true,
      madeWith: expect.stringMatching(/^Reelsmith /),
      sourceType: 'algorithmicMedia',
      installation: PUBLIC_URL,
      problems: [],
    });
    expect(report.signedBy).toContain('Reelsmith');
    expect(report.signedAt).toEqual(expect.any(String));
    expect(report.ingredients).toEqual([
      {
        title: 'image upload',
        relationship: 'inputTo',
        format: 'image/png',
        sha256: signedVideo.photoHash,
        hasCredentials: false,
      },
    ]);

    const altered = (await verify(signedVideo.altered)).json<CredentialsReport>();
    expect(altered).toMatchObject({ hasCredentials: true, intact: false, trusted: true });
    expect(altered.problems.map((problem) => problem.code)).toContain('assertion.bmffHash.mismatch');

    const bare = await verify(await makeClip(1));
    expect(bare.statusCode, bare.body).toBe(200);
    expect(bare.json<CredentialsReport>()).toMatchObject({ hasCredentials: false, intact: false, ingredients: [] });

    expect((await verify(Buffer.from('just some words'), 'text/plain')).statusCode).toBe(415);
    expect((await verify(signedVideo.bytes.subarray(0, 5000))).statusCode).toBe(422);
  }, 60_000);

  it("shows a file signed by someone else with that signer's own facts, as an unknown signer", async () => {
    // A camera app's clip, signed by another organisation's certificate that this installation does not trust.
    const dir = await mkdtemp(path.join(tmpdir(), 'reelsmith-foreign-'));
    try {
      const clip = path.join(dir, 'harbour.mp4');
      const signed = path.join(dir, 'harbour-signed.mp4');
      await writeFile(clip, await makeClip(1));
      const newsroom = await makeInstallationIdentity('https://newsroom.example', new Date(), 'Example Newsroom');
      await signVideo(clip, signed, foreignPlan('Example Camera'), newsroom);
      const answer = await verify(await readFile(signed));
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json<CredentialsReport>()).toMatchObject({
        hasCredentials: true,
        intact: true,
        trusted: false,
        signedBy: 'Example Newsroom newsroom.example',
        issuer: 'Example Newsroom',
        madeWith: 'Example Camera 3.1',
        sourceType: 'digitalCapture',
        model: null,
        installation: null,
        ingredients: [],
        edits: [],
        problems: [],
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("signs with an operator's Ed25519 certificate and key, which verifiers read back intact", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reelsmith-ed25519-'));
    try {
      const operator = await makeInstallationIdentity(PUBLIC_URL, new Date(), 'Example Studio', 'ed25519');
      const clip = path.join(dir, 'clip.mp4');
      const signed = path.join(dir, 'clip-signed.mp4');
      await writeFile(clip, await makeClip(1));
      await signVideo(clip, signed, foreignPlan('Example Studio Render'), operator);
      const bytes = await readFile(signed);
      const read = await independentlyRead(bytes);
      expect(read?.failures.filter((code) => !code.startsWith('signingCredential'))).toEqual([]);
      const store = await readCredentials({ bytes }, 'video/mp4', anchorPemOf(operator.certificateChainPem));
      expect(summarise(store)).toMatchObject({
        intact: true,
        trusted: true,
        signedBy: 'Example Studio reelsmith.example',
      });
      const signature = store?.manifests?.[store.active_manifest ?? '']?.signature_info as { alg?: string };
      expect(signature.alg).toBe('Ed25519');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
