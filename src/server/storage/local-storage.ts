import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type ByteRange, ObjectNotFoundError, type ObjectStorage } from './storage';

/** Objects as files under one root folder (DATA_DIR/objects by default). */
export function createLocalStorage(root: string): ObjectStorage {
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(root, ...key.split('/'));
  };
  return {
    kind: 'local',
    async put(key, body: Readable) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written beside the target, then renamed: readers never see half a file.
      const partial = `${file}.${randomUUID()}.part`;
      try {
        await pipeline(body, createWriteStream(partial));
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { size: (await stat(file)).size };
    },
    async read(key, range?: ByteRange) {
      const file = fileOf(key);
      try {
        await stat(file);
      } catch {
        throw new ObjectNotFoundError(key);
      }
      return createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },
    async stat(key) {
      const file = fileOf(key);
      try {
        const info = await stat(file);
        return info.isFile() ? { size: info.size } : null;
      } catch {
        return null;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    async deletePrefix(prefix) {
      assertSafeKey(prefix.replace(/\/$/, ''));
      await rm(path.join(root, ...prefix.replace(/\/$/, '').split('/')), { recursive: true, force: true });
    },
    async createDirectUpload() {
      return null;
    },
    async createDownloadUrl() {
      return null;
    },
  };
}
