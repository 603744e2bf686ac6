import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3rver } from '../../../tests/support/s3rver';
import { createLocalStorage } from './local-storage';
import { createS3Storage } from './s3-storage';
import { ObjectNotFoundError, type ObjectStorage } from './storage';

const bytes = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + 7) % 256));

interface Leg {
  storage: ObjectStorage;
  stop: () => Promise<void>;
}

const legs: Record<'local' | 's3', () => Promise<Leg>> = {
  local: async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'reelsmith-storage-'));
    return { storage: createLocalStorage(root), stop: async () => rmSync(root, { recursive: true, force: true }) };
  },
  s3: async () => {
    const s3 = await startS3rver();
    return { storage: createS3Storage(s3.config), stop: () => s3.stop() };
  },
};

describe.each(Object.keys(legs) as ('local' | 's3')[])('%s storage', (name) => {
  let leg: Leg;
  beforeAll(async () => {
    leg = await legs[name]();
  });
  afterAll(async () => {
    await leg.stop();
  });

  it('stores a stream and reads back the same bytes', async () => {
    const data = bytes(300_000);
    const { size } = await leg.storage.put(
      'uploads/u1/a',
      Readable.from([data.subarray(0, 1000), data.subarray(1000)]),
      'image/png',
    );
    expect(size).toBe(data.length);
    expect(await leg.storage.stat('uploads/u1/a')).toEqual({ size: data.length });
    expect((await buffer(await leg.storage.read('uploads/u1/a'))).equals(data)).toBe(true);
  });

  it('reads exactly the requested byte range', async () => {
    const data = bytes(5000);
    await leg.storage.put('uploads/u1/range', Readable.from([data]), 'video/mp4');
    const part = await buffer(await leg.storage.read('uploads/u1/range', { start: 100, end: 1099 }));
    expect(part.equals(data.subarray(100, 1100))).toBe(true);
  });

  it('reports absent objects and deletes idempotently', async () => {
    expect(await leg.storage.stat('uploads/u1/none')).toBeNull();
    await expect(leg.storage.read('uploads/u1/none')).rejects.toBeInstanceOf(ObjectNotFoundError);
    await leg.storage.put('uploads/u1/gone', Readable.from([bytes(10)]), 'audio/mpeg');
    await leg.storage.delete('uploads/u1/gone');
    await leg.storage.delete('uploads/u1/gone');
    expect(await leg.storage.stat('uploads/u1/gone')).toBeNull();
  });

  it('deletes everything under a prefix and nothing else', async () => {
    await leg.storage.put('uploads/u2/x', Readable.from([bytes(10)]), 'image/png');
    await leg.storage.put('uploads/u2/y', Readable.from([bytes(10)]), 'image/png');
    await leg.storage.put('uploads/u3/z', Readable.from([bytes(10)]), 'image/png');
    await leg.storage.deletePrefix('uploads/u2/');
    expect(await leg.storage.stat('uploads/u2/x')).toBeNull();
    expect(await leg.storage.stat('uploads/u2/y')).toBeNull();
    expect(await leg.storage.stat('uploads/u3/z')).toEqual({ size: 10 });
  });

  it('refuses keys that could escape their folder', async () => {
    await expect(leg.storage.put('../etc/passwd', Readable.from([bytes(1)]), 'image/png')).rejects.toThrow(
      'unsafe object key',
    );
    await expect(leg.storage.stat('uploads//x')).rejects.toThrow('unsafe object key');
  });

  it.runIf(name === 's3')(
    'lets a browser upload directly with a presigned POST and read through a presigned GET',
    async () => {
      const target = await leg.storage.createDirectUpload('uploads/u4/direct', {
        maxBytes: 1000,
        expiresInSeconds: 60,
      });
      expect(target?.method).toBe('POST');
      const form = new FormData();
      for (const [key, value] of Object.entries(target?.fields ?? {})) form.append(key, value);
      form.append('file', new Blob([bytes(500)], { type: 'image/png' }));
      const posted = await fetch(target?.url ?? '', { method: 'POST', body: form });
      expect(posted.status).toBeLessThan(300);
      expect(await leg.storage.stat('uploads/u4/direct')).toEqual({ size: 500 });
      // s3rver does not enforce POST policies; real S3 does. Check the policy we sign says what it must.
      const policy = JSON.parse(Buffer.from(target?.fields.Policy ?? '', 'base64').toString('utf8'));
      expect(policy.conditions).toContainEqual(['content-length-range', 1, 1000]);
      expect(policy.conditions).toContainEqual({ key: 'uploads/u4/direct' });
      const url = await leg.storage.createDownloadUrl('uploads/u4/direct', { expiresInSeconds: 60 });
      const got = await fetch(url ?? '');
      expect(Buffer.from(await got.arrayBuffer()).equals(bytes(500))).toBe(true);
    },
  );
});
