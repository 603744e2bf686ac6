import { type KeyObject, sign } from 'node:crypto';

/**
 * The COSE_Sign1 signature of a C2PA claim (RFC 9052 §4.2, C2PA 2.x §14), made here because the
 * c2pa WebAssembly build hands its signer the claim and stores what it returns as it is ("direct
 * COSE handling"). The end-entity certificate chain rides in the protected header (`x5chain`, RFC
 * 9360); the payload is detached; an unprotected `pad` fills the reserved box exactly, as c2pa-rs's
 * own signer does.
 */

export type CoseAlgorithm = 'es256' | 'ed25519';

/** COSE algorithm identifiers (IANA COSE Algorithms registry). */
const COSE_ALG: Record<CoseAlgorithm, number> = { es256: -7, ed25519: -8 };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}
const bytes = (value: Uint8Array) => Buffer.concat([head(2, value.length), value]);
const text = (value: string) => {
  const encoded = Buffer.from(value, 'utf8');
  return Buffer.concat([head(3, encoded.length), encoded]);
};
const integer = (value: number) => (value >= 0 ? head(0, value) : head(1, -1 - value));
const array = (items: Buffer[]) => Buffer.concat([head(4, items.length), ...items]);
const map = (pairs: [Buffer, Buffer][]) => Buffer.concat([head(5, pairs.length), ...pairs.flat()]);
const NULL = Buffer.from([0xf6]);
/** CBOR tag 18: COSE_Sign1. */
const SIGN1_TAG = Buffer.from([0xd2]);

export interface CoseSigner {
  algorithm: CoseAlgorithm;
  /** DER certificates, the end entity's first. */
  certificates: Buffer[];
  privateKey: KeyObject;
}

/** The tagged COSE_Sign1 over `claim`, exactly `size` bytes long. */
export function signClaim(signer: CoseSigner, claim: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const chain =
    signer.certificates.length === 1
      ? bytes(signer.certificates[0] as Buffer)
      : array(signer.certificates.map((certificate) => bytes(certificate)));
  const protectedHeader = map([
    [integer(1), integer(COSE_ALG[signer.algorithm])],
    [integer(33), chain],
  ]);
  const toBeSigned = array([text('Signature1'), bytes(protectedHeader), bytes(Buffer.alloc(0)), bytes(claim)]);
  const signature =
    signer.algorithm === 'es256'
      ? sign('sha256', toBeSigned, { key: signer.privateKey, dsaEncoding: 'ieee-p1363' })
      : sign(null, toBeSigned, signer.privateKey);
  const build = (padding: number) =>
    Buffer.concat([
      SIGN1_TAG,
      array([bytes(protectedHeader), map([[text('pad'), bytes(Buffer.alloc(padding))]]), NULL, bytes(signature)]),
    ]);
  // The pad's own length prefix grows by steps: start from the unpadded size and settle on the exact fill.
  let padding = Math.max(0, size - build(0).length);
  let out = build(padding);
  while (out.length > size && padding > 0) out = build((padding -= 1));
  while (out.length < size) out = build((padding += 1));
  if (out.length !== size) throw new Error(`the signature does not fit its ${size}-byte box`);
  return new Uint8Array(out);
}

/** The box to reserve: the chain, the signature and the COSE framing, with room to spare. */
export function reserveSizeFor(signer: CoseSigner): number {
  return signer.certificates.reduce((sum, certificate) => sum + certificate.length, 0) + 1024;
}
