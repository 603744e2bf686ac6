import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { signingIdentities } from '../../db/schema';
import type { SigningIdentityPem } from '../../provenance/identity';

const INSTALLATION = 'installation';

/** The installation's signer, if one has been made. */
export async function findInstallationIdentity(db: Executor): Promise<SigningIdentityPem | null> {
  const [row] = await db
    .select({
      certificateChainPem: signingIdentities.certificateChainPem,
      privateKeyPem: signingIdentities.privateKeyPem,
    })
    .from(signingIdentities)
    .where(eq(signingIdentities.id, INSTALLATION));
  return row ?? null;
}

/** Keeps `identity` unless another process kept one first; either way, answers the one kept. */
export async function keepInstallationIdentity(
  db: Executor,
  identity: SigningIdentityPem,
): Promise<SigningIdentityPem> {
  await db
    .insert(signingIdentities)
    .values({ id: INSTALLATION, ...identity })
    .onConflictDoNothing({ target: signingIdentities.id });
  const kept = await findInstallationIdentity(db);
  if (!kept) throw new Error('the signing identity was not kept');
  return kept;
}
