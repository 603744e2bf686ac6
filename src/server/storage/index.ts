import path from 'node:path';
import type { Config } from '../config';
import { createLocalStorage } from './local-storage';
import { createS3Storage } from './s3-storage';
import type { ObjectStorage } from './storage';

export * from './storage';

/** S3 when S3_BUCKET is set, else local disk under DATA_DIR/objects. */
export function createStorage(config: Pick<Config, 's3' | 'dataDir'>): ObjectStorage {
  return config.s3 ? createS3Storage(config.s3) : createLocalStorage(path.join(config.dataDir, 'objects'));
}
