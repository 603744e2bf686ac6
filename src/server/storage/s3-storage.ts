import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import type { S3Config } from '../config';
import { assertSafeKey, type ByteRange, ObjectNotFoundError, type ObjectStorage } from './storage';

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/** Objects in an S3-compatible bucket (AWS SDK v3). */
export function createS3Storage(config: S3Config): ObjectStorage {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId && config.secretAccessKey
      ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
      : {}),
  });
  const Bucket = config.bucket;
  return {
    kind: 's3',
    async put(key, body, contentType) {
      assertSafeKey(key);
      // Multipart under the hood for large bodies, so nothing is buffered whole.
      await new Upload({ client, params: { Bucket, Key: key, Body: body, ContentType: contentType } }).done();
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    },
    async read(key, range?: ByteRange) {
      assertSafeKey(key);
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
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
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: head.ContentLength ?? 0 };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      assertSafeKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async deletePrefix(prefix) {
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }));
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (keys.length > 0) await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys } }));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async createDirectUpload(key, options) {
      assertSafeKey(key);
      // The policy fixes the key and the size, so the bucket itself refuses anything else.
      const post = await createPresignedPost(client, {
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
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key: key,
          ...(options.contentType ? { ResponseContentType: options.contentType } : {}),
        }),
        { expiresIn: options.expiresInSeconds },
      );
    },
  };
}
