import { BMFF } from '@trustnxt/c2pa-ts/asset';
import { SuperBox } from '@trustnxt/c2pa-ts/jumbf';
import { ManifestStore } from '@trustnxt/c2pa-ts/manifest';

// Content Credentials read back by an implementation independent of the signer: TrustNXT's
// pure-TypeScript c2pa-ts (Reelsmith signs with the CAI's c2pa-rs).

// c2pa-ts reads BMFF for HEIF images and checks their brands; an MP4's boxes are read the same way.
for (const brand of ['isom', 'iso2', 'mp41', 'mp42'])
  (BMFF as unknown as { canReadBrands: Set<string> }).canReadBrands.add(brand);

/** IPTC's digital source type term of a URI (`trainedAlgorithmicMedia`, ...). */
const term = (uri: string | undefined) => uri?.split('/').pop();

/** The manifest of an MP4 as c2pa-ts reads and validates it; null when it carries none. */
export async function independentlyRead(bytes: Buffer) {
  const asset = new BMFF(bytes);
  const jumbf = asset.getManifestJUMBF();
  if (!jumbf) return null;
  const store = ManifestStore.read(SuperBox.fromBuffer(new Uint8Array(jumbf)));
  const validation = await store.validate(asset);
  const manifest = store.getActiveManifest();
  const assertions = (manifest?.assertions?.assertions ?? []) as unknown as {
    label?: string;
    actions?: { action: string; digitalSourceType?: string }[];
    relationship?: string;
    instanceID?: string;
    content?: unknown;
  }[];
  const actions = assertions.flatMap((assertion) => assertion.actions ?? []);
  return {
    valid: validation.isValid,
    failures: validation.statusEntries.filter((entry) => !entry.success).map((entry) => entry.code),
    actions,
    /** The created action's source type, as its IPTC term. */
    sourceType: term(actions.find((action) => action.action === 'c2pa.created')?.digitalSourceType),
    ingredients: assertions.filter((assertion) => assertion.relationship),
  };
}
