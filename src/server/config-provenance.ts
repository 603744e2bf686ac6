import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type z } from 'zod';
import { flag, optionalText } from './config-fields';

/**
 * Content Credentials (issue 42): who signs them and what they say. config.ts spreads
 * `provenanceEnv` into its schema and calls readProvenanceConfig; nothing here reads process.env.
 */
export const provenanceEnv = {
  /** The operator's signing certificate chain (PEM, the end entity's first), with C2PA_PRIVATE_KEY_FILE. */
  C2PA_CERTIFICATE_FILE: optionalText,
  /** The private key of the chain's first certificate (PEM: EC P-256 or Ed25519). */
  C2PA_PRIVATE_KEY_FILE: optionalText,
  /** Whether a video's Content Credentials carry its description (off: descriptions can be private). */
  C2PA_INCLUDE_PROMPT: flag('false'),
  /** A small visible "AI" mark in a corner of every provider's render (re-encoded once, before signing). */
  VISIBLE_AI_LABEL: flag('false'),
};

type ProvenanceEnv = z.output<z.ZodObject<typeof provenanceEnv>>;

export interface ProvenanceConfig {
  /** The operator's PEM chain and key, read at start; null: the installation's own pair (kept in the database). */
  operatorIdentity: { certificateChainPem: string; privateKeyPem: string } | null;
  includePrompt: boolean;
  visibleLabel: boolean;
}

export function readProvenanceConfig(env: ProvenanceEnv): ProvenanceConfig {
  const certificate = env.C2PA_CERTIFICATE_FILE;
  const key = env.C2PA_PRIVATE_KEY_FILE;
  if (Boolean(certificate) !== Boolean(key))
    throw new Error('C2PA_CERTIFICATE_FILE and C2PA_PRIVATE_KEY_FILE: set both or neither');
  const operatorIdentity =
    certificate && key
      ? { certificateChainPem: readFileSync(certificate, 'utf8'), privateKeyPem: readFileSync(key, 'utf8') }
      : null;
  if (operatorIdentity) checkIdentity(operatorIdentity);
  return { operatorIdentity, includePrompt: env.C2PA_INCLUDE_PROMPT, visibleLabel: env.VISIBLE_AI_LABEL };
}

/** Refuses to start with a key that is not the first certificate's, or of a kind C2PA signing here cannot use. */
function checkIdentity(identity: { certificateChainPem: string; privateKeyPem: string }): void {
  const key = createPrivateKey(identity.privateKeyPem);
  const p256 = key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  if (!p256 && key.asymmetricKeyType !== 'ed25519')
    throw new Error('C2PA_PRIVATE_KEY_FILE: the key must be EC P-256 (ES256) or Ed25519');
  if (!new X509Certificate(identity.certificateChainPem).checkPrivateKey(key))
    throw new Error('C2PA_PRIVATE_KEY_FILE is not the key of the first certificate in C2PA_CERTIFICATE_FILE');
}
