import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../../src/server/config';

/** A local S3-compatible server (s3rver) on 127.0.0.1 with one empty bucket. */
export async function startS3rver(): Promise<{ config: S3Config; stop: () => Promise<void> }> {
  const directory = mkdtempSync(path.join(tmpdir(), 'reelsmith-s3rver-'));
  const bucket = 'reelsmith-test';
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    config: {
      bucket,
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
