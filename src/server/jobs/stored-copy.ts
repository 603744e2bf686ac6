import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { EngineError } from '../engines/engine';
import type { ObjectStorage } from '../storage';

/**
 * Reads a copy a job holds in storage (a film's take, a finishing action's original) into a file of
 * its work folder. One no longer stored fails the job for good, with `goneMessage` for its owner.
 */
export async function readStoredCopy(
  storage: ObjectStorage,
  key: string,
  file: string,
  options: { signal: AbortSignal; goneMessage: string },
): Promise<string> {
  try {
    await pipeline(await storage.read(key), createWriteStream(file));
  } catch (error) {
    if (options.signal.aborted) throw error;
    throw new EngineError(options.goneMessage, false, String(error));
  }
  return file;
}
