import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type * as C2paModule from '@contentauth/c2pa-wasm';
import { reserveSizeFor, signClaim } from './cose';
import { coseSignerFrom, type SigningIdentityPem } from './identity';

/**
 * Content Credentials through the Content Authenticity Initiative's c2pa-rs, in its WebAssembly
 * build (`@contentauth/c2pa-wasm`, pinned): the manifest is built, signed and embedded into the
 * MP4 (ISO BMFF) by c2pa-rs, and read back and validated by it. This runs in the c2pa worker
 * thread (c2pa.worker.ts): c2pa-rs reads and hashes synchronously, which must not hold the event
 * loop that serves requests and renews job leases.
 *
 * That build reads assets as browser Blobs through FileReaderSync (a Web Worker API). Here a file
 * is handed to it as a Blob-shaped view of the file (`size`, `slice`) and a FileReaderSync that
 * reads those views with synchronous file reads, so nothing but the asked range is read at a time.
 */

type C2pa = typeof C2paModule;
let loaded: Promise<C2pa> | undefined;

/** One compiled module per process, on first use (the .wasm is 9 MB). */
function c2pa(): Promise<C2pa> {
  loaded ??= (async () => {
    installFileReaderSync();
    const module = await import('@contentauth/c2pa-wasm');
    const wasm = readFileSync(createRequire(import.meta.url).resolve('@contentauth/c2pa-wasm/c2pa.wasm'));
    module.initSync({ module: wasm });
    return module;
  })();
  return loaded;
}

/** A byte range of a file (or of bytes in memory), shaped as the Blob c2pa-wasm reads. */
class AssetView {
  constructor(
    private readonly source: { fd: number } | { bytes: Uint8Array },
    private readonly start: number,
    private readonly end: number,
  ) {}
  get size(): number {
    return this.end - this.start;
  }
  slice(from = 0, to = this.size): AssetView {
    const clamp = (value: number) => Math.max(0, Math.min(this.size, value));
    return new AssetView(this.source, this.start + clamp(from), this.start + clamp(to));
  }
  read(): ArrayBuffer {
    const out = new Uint8Array(this.size);
    if ('bytes' in this.source) out.set(this.source.bytes.subarray(this.start, this.end));
    else {
      let done = 0;
      while (done < out.length) {
        const read = readSync(this.source.fd, out, done, out.length - done, this.start + done);
        if (read === 0) throw new Error('the file ended before its size');
        done += read;
      }
    }
    return out.buffer;
  }
}

function installFileReaderSync(): void {
  const scope = globalThis as { FileReaderSync?: unknown };
  if (scope.FileReaderSync) return;
  scope.FileReaderSync = class {
    readAsArrayBuffer(blob: unknown): ArrayBuffer {
      if (!(blob instanceof AssetView)) throw new TypeError('only Reelsmith asset views are read here');
      return blob.read();
    }
  };
}

async function withFile<T>(file: string, use: (view: AssetView) => Promise<T>): Promise<T> {
  const fd = openSync(file, 'r');
  try {
    return await use(new AssetView({ fd }, 0, fstatSync(fd).size));
  } finally {
    closeSync(fd);
  }
}

/** What goes into a manifest: c2pa-rs's manifest definition, and the ingredients beside it. */
export interface ManifestPlan {
  definition: Record<string, unknown>;
  /** Ingredients known by their facts alone (an uploaded input by its hash). */
  ingredients: Record<string, unknown>[];
  /**
   * Ingredients read from their files, each with its own manifest when it has one: an Extend's
   * parent video, a film's shots.
   */
  fromFiles?: { definition: Record<string, unknown>; file: string; format: string }[];
}

/** Signs `input` into `output` (an MP4) with the plan's manifest. */
export async function signVideo(
  input: string,
  output: string,
  plan: ManifestPlan,
  identity: SigningIdentityPem,
): Promise<void> {
  const signer = coseSignerFrom(identity);
  const { WasmBuilder } = await c2pa();
  const builder = WasmBuilder.fromJson(JSON.stringify(plan.definition));
  try {
    for (const ingredient of plan.ingredients) builder.addIngredient(JSON.stringify(ingredient));
    for (const source of plan.fromFiles ?? []) {
      await withFile(source.file, (view) =>
        builder.addIngredientFromBlob(JSON.stringify(source.definition), source.format, view as unknown as Blob),
      );
    }
    const reserveSize = reserveSizeFor(signer);
    const signed = await withFile(input, (view) =>
      builder.sign(
        { alg: signer.algorithm, reserveSize, sign: async (claim) => signClaim(signer, claim, reserveSize) },
        [],
        'video/mp4',
        view as unknown as Blob,
      ),
    );
    await writeFile(output, signed);
  } finally {
    builder.free();
  }
}

/** A manifest store as c2pa-rs reads it (its JSON form), or null when the asset carries none. */
export type ManifestStoreJson = Record<string, unknown> & {
  active_manifest?: string;
  manifests?: Record<string, Record<string, unknown>>;
  validation_state?: string;
  validation_results?: Record<string, unknown>;
};

/** Reads and validates the Content Credentials of a file, trusting `trustAnchorsPem` besides none. */
export async function readCredentials(
  source: { file: string } | { bytes: Uint8Array },
  format: string,
  trustAnchorsPem?: string,
): Promise<ManifestStoreJson | null> {
  const { WasmReader } = await c2pa();
  const settings = JSON.stringify({
    version: 1,
    verify: { verify_trust: Boolean(trustAnchorsPem) },
    ...(trustAnchorsPem ? { trust: { trust_anchors: trustAnchorsPem } } : {}),
  });
  const read = async (view: AssetView) => {
    try {
      const reader = await WasmReader.fromBlob(format, view as unknown as Blob, settings);
      try {
        return JSON.parse(reader.json()) as ManifestStoreJson;
      } finally {
        reader.free();
      }
    } catch (error) {
      if (/JumbfNotFound|no JUMBF data found|ProvenanceMissing/i.test(String(error))) return null;
      throw error;
    }
  };
  if ('file' in source) return withFile(source.file, read);
  return read(new AssetView({ bytes: source.bytes }, 0, source.bytes.length));
}
