import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type ByteRange, ObjectNotFoundError, type ObjectStorage } from './storage';

/**
 * Files being written live in this folder under the root until they are complete: no object key
 * can name it (keys never start with a dot), and one folder is quick to sweep.
 */
const PARTIAL_FOLDER = '.partial';

/** Local disk storage, which can also sweep the partial files of writes a dead process left behind. */
export interface LocalObjectStorage extends ObjectStorage {
  readonly kind: 'local';
  /** Removes partial files not written to for `olderThanMs` (real time); answers how many. */
  removeStalePartials(olderThanMs: number): Promise<number>;
}

export function isLocalStorage(storage: ObjectStorage): storage is LocalObjectStorage {
  return storage.kind === 'local' && 'removeStalePartials' in storage;
}

/** Objects as files under one root folder (DATA_DIR/objects by default). */
export function createLocalStorage(root: string): LocalObjectStorage {
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(root, ...key.split('/'));
  };
  const partials = path.join(root, PARTIAL_FOLDER);
  return {
    kind: 'local',
    async put(key, body: Readable) {
      const file = fileOf(key);
      await Promise.all([mkdir(path.dirname(file), { recursive: true }), mkdir(partials, { recursive: true })]);
      // Written aside, then renamed (same disk): readers never see half a file.
      const partial = path.join(partials, `${randomUUID()}.part`);
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
      // The file is opened here, not when the stream first reads: once open it stays readable even
      // if it is deleted meanwhile, and a file already gone is ObjectNotFoundError, never a stream error.
      const handle = await open(fileOf(key), 'r').catch(() => {
        throw new ObjectNotFoundError(key);
      });
      if (!(await handle.stat()).isFile()) {
        await handle.close();
        throw new ObjectNotFoundError(key);
      }
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
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
    async removeStalePartials(olderThanMs) {
      let removed = 0;
      const now = Date.now();
      for (const name of await readdir(partials).catch(() => [] as string[])) {
        const file = path.join(partials, name);
        const info = await stat(file).catch(() => null);
        if (!info?.isFile() || now - info.mtimeMs < olderThanMs) continue;
        await rm(file, { force: true });
        removed += 1;
      }
      return removed;
    },
  };
}
