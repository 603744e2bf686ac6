import 'reflect-metadata';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { CoseAlgorithm, CoseSigner } from './cose';

/**
 * Who signs an installation's Content Credentials: the operator's certificate chain and key (PEM),
 * or a pair this installation makes for itself once: a root that signs an end-entity certificate,
 * because C2PA refuses a self-signed certificate as the signer (C2PA 2.x §14.5.1 certificate
 * profile: digitalSignature key usage, an allowed extended key usage, not a CA).
 */
export interface SigningIdentityPem {
  certificateChainPem: string;
  privateKeyPem: string;
}

/** id-kp-emailProtection: one of the extended key usages C2PA accepts for a claim signer. */
const EMAIL_PROTECTION = '1.3.6.1.5.5.7.3.4';
const DAY_MS = 86_400_000;
const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const ED25519 = { name: 'Ed25519' } as const;

x509.cryptoProvider.set(globalThis.crypto);

/**
 * A new root and end-entity certificate (ECDSA P-256 for an installation's own; Ed25519 as an
 * operator's may be), named after the installation and its organisation (Reelsmith's own
 * installations; the tests make other signers with another name).
 */
export async function makeInstallationIdentity(
  installation: string,
  now = new Date(),
  organisation = 'Reelsmith',
  keyType: 'p256' | 'ed25519' = 'p256',
): Promise<SigningIdentityPem> {
  const algorithm = keyType === 'ed25519' ? ED25519 : ECDSA_P256;
  const host = new URL(installation).host.replace(/[,=+<>#;"\\]/g, '');
  const rootKeys = (await globalThis.crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: `CN=${organisation} installation root ${host}, O=${organisation}`,
    notBefore: now,
    notAfter: new Date(now.getTime() + 20 * 365 * DAY_MS),
    signingAlgorithm: algorithm,
    keys: rootKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });
  const signerKeys = (await globalThis.crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const signer = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: `CN=${organisation} ${host}, O=${organisation}`,
    issuer: root.subject,
    notBefore: now,
    notAfter: new Date(now.getTime() + 10 * 365 * DAY_MS),
    signingAlgorithm: algorithm,
    publicKey: signerKeys.publicKey,
    signingKey: rootKeys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([EMAIL_PROTECTION], false),
      await x509.SubjectKeyIdentifierExtension.create(signerKeys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });
  const pkcs8 = Buffer.from(await globalThis.crypto.subtle.exportKey('pkcs8', signerKeys.privateKey));
  return {
    certificateChainPem: `${signer.toString('pem')}\n${root.toString('pem')}\n`,
    privateKeyPem: createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })
      .export({ format: 'pem', type: 'pkcs8' })
      .toString(),
  };
}

function randomSerial(): string {
  // Positive (a leading 0-7 hex digit), 16 bytes: RFC 5280 §4.1.2.2.
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString('hex');
}

/** The DER certificates of a PEM chain, in order. */
export function certificatesFromPem(pem: string): Buffer[] {
  const blocks = [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/g)];
  return blocks.map((block) => Buffer.from((block[1] ?? '').replace(/\s+/g, ''), 'base64'));
}

/** The chain's last certificate as PEM: the anchor a reader trusts to accept this chain's signatures. */
export function anchorPemOf(certificateChainPem: string): string {
  const anchor = certificatesFromPem(certificateChainPem).at(-1);
  if (!anchor) throw new Error('the certificate chain holds no PEM certificate');
  return `-----BEGIN CERTIFICATE-----\n${anchor.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;
}

/** The signer for a PEM identity: ES256 for an EC P-256 key, Ed25519 for an Ed25519 key; else an error that says so. */
export function coseSignerFrom(identity: SigningIdentityPem): CoseSigner {
  const certificates = certificatesFromPem(identity.certificateChainPem);
  if (certificates.length === 0) throw new Error('the certificate chain holds no PEM certificate');
  const privateKey = createPrivateKey(identity.privateKeyPem);
  let algorithm: CoseAlgorithm;
  if (privateKey.asymmetricKeyType === 'ed25519') algorithm = 'ed25519';
  else if (privateKey.asymmetricKeyType === 'ec' && privateKey.asymmetricKeyDetails?.namedCurve === 'prime256v1')
    algorithm = 'es256';
  else throw new Error('the signing key must be EC P-256 (ES256) or Ed25519');
  if (!new X509Certificate(certificates[0] as Buffer).checkPrivateKey(privateKey))
    throw new Error('the signing key is not the key of the first certificate in the chain');
  return { algorithm, certificates, privateKey };
}
