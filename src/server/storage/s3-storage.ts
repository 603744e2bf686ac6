import type { S3Client } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { S3Config } from '../config';
import { assertSafeKey, type ByteRange, ObjectNotFoundError, type ObjectStorage } from './storage';

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/**
 * The AWS SDK, loaded on first use: an installation on local disk never loads it, and one on S3
 * does not spend its start-up loading it (about 0.4 s; bench/cold-start.ts).
 */
async function loadSdk() {
  const [s3, presignedPost, presigner, storage] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/s3-presigned-post'),
    import('@aws-sdk/s3-request-presigner'),
    import('@aws-sdk/lib-storage'),
  ]);
  return {
    ...s3,
    createPresignedPost: presignedPost.createPresignedPost,
    getSignedUrl: presigner.getSignedUrl,
    Upload: storage.Upload,
  };
}

/** Objects in an S3-compatible bucket (AWS SDK v3). */
export function createS3Storage(config: S3Config): ObjectStorage {
  let loaded: Promise<{ sdk: Awaited<ReturnType<typeof loadSdk>>; client: S3Client }> | undefined;
  const connect = () =>
    (loaded ??= loadSdk().then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.region,
        ...(config.endpoint ? { endpoint: config.endpoint } : {}),
        forcePathStyle: config.forcePathStyle,
        ...(config.accessKeyId && config.secretAccessKey
          ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
          : {}),
      }),
    })));
  // A failed load is tried again by the next call.
  const sdkAndClient = () =>
    connect().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
  const Bucket = config.bucket;
  return {
    kind: 's3',
    async put(key, body, contentType) {
      assertSafeKey(key);
      const { sdk, client } = await sdkAndClient();
      // Multipart under the hood for large bodies, so nothing is buffered whole.
      await new sdk.Upload({ client, params: { Bucket, Key: key, Body: body, ContentType: contentType } }).done();
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    },
    async read(key, range?: ByteRange) {
      assertSafeKey(key);
      const { sdk, client } = await sdkAndClient();
      try {
        const answer = await client.send(
          new sdk.GetObjectCommand({
            Bucket,
            Key: key,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        if (!(answer.Body instanceof Readable)) throw new Error('S3 answered without a stream body');
        return answer.Body;
      } catch (error) {
        if (isNotFound(error)) throw new ObjectNotFoundError(key);
        throw error;
      }
    },
    async stat(key) {
      assertSafeKey(key);
      const { sdk, client } = await sdkAndClient();
      try {
        const head = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
        return { size: head.ContentLength ?? 0 };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      assertSafeKey(key);
      const { sdk, client } = await sdkAndClient();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },
    async deletePrefix(prefix) {
      const { sdk, client } = await sdkAndClient();
      let token: string | undefined;
      do {
        const page = await client.send(
          new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
        );
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (keys.length > 0) await client.send(new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects: keys } }));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async createDirectUpload(key, options) {
      assertSafeKey(key);
      const { sdk, client } = await sdkAndClient();
      // The policy fixes the key and the size, so the bucket itself refuses anything else.
      const post = await sdk.createPresignedPost(client, {
        Bucket,
        Key: key,
        Conditions: [['content-length-range', 1, options.maxBytes]],
        Fields: { success_action_status: '204' },
        Expires: options.expiresInSeconds,
      });
      return { url: post.url, method: 'POST', fields: post.fields, headers: {} };
    },
    async createDownloadUrl(key, options) {
      assertSafeKey(key);
      const { sdk, client } = await sdkAndClient();
      return sdk.getSignedUrl(
        client,
        new sdk.GetObjectCommand({
          Bucket,
          Key: key,
          ...(options.contentType ? { ResponseContentType: options.contentType } : {}),
        }),
        { expiresIn: options.expiresInSeconds },
      );
    },
  };
}
