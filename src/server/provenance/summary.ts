import type { CredentialsReport } from '../../shared/provenance';
import type { ManifestStoreJson } from './c2pa';

/** Trust-list codes: a verifier that does not know the signer says so, which is not a change to the file. */
const TRUST_CODES = new Set(['signingCredential.untrusted', 'signingCredential.ocsp.skipped']);

type Entry = { code?: string; explanation?: string };
type Manifest = {
  claim_generator_info?: { name?: string; version?: string }[];
  claim_generator?: string;
  signature_info?: { issuer?: string; common_name?: string; time?: string };
  assertions?: { label?: string; data?: Record<string, unknown> }[];
  ingredients?: {
    title?: string;
    relationship?: string;
    format?: string;
    instance_id?: string;
    active_manifest?: string;
  }[];
};

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

/** A report of what a c2pa-rs manifest store says, for people (the /verify page) and programs. */
export function summarise(store: ManifestStoreJson | null): CredentialsReport {
  const empty: CredentialsReport = {
    hasCredentials: false,
    intact: false,
    trusted: false,
    signedBy: null,
    issuer: null,
    signedAt: null,
    madeWith: null,
    sourceType: null,
    model: null,
    installation: null,
    ingredients: [],
    edits: [],
    problems: [],
  };
  const manifest = store?.manifests?.[store.active_manifest ?? ''] as Manifest | undefined;
  if (!store || !manifest) return empty;
  const results = (store.validation_results as { activeManifest?: { failure?: Entry[] } } | undefined)?.activeManifest;
  const failures = results?.failure ?? [];
  const problems = failures
    .filter((entry) => entry.code && !TRUST_CODES.has(entry.code))
    .map((entry) => ({ code: entry.code ?? '', explanation: entry.explanation ?? '' }));
  const assertions = manifest.assertions ?? [];
  const actions = (assertions.find((a) => a.label?.startsWith('c2pa.actions'))?.data?.actions ?? []) as {
    action?: string;
    when?: string;
    digitalSourceType?: string;
    description?: string;
    softwareAgent?: { name?: string } | string;
  }[];
  const agentName = (agent: { name?: string } | string | undefined) =>
    typeof agent === 'string' ? agent : text(agent?.name);
  const created = actions.find((a) => a.action === 'c2pa.created') ?? actions[0];
  const ours = assertions.find((a) => a.label === 'com.reelsmith.generation')?.data ?? {};
  const generator = manifest.claim_generator_info?.[0];
  const agent = created?.softwareAgent;
  return {
    hasCredentials: true,
    intact: problems.length === 0,
    // The signer's standing, apart from whether the file changed: no complaint about its credential.
    trusted: !failures.some((entry) => entry.code?.startsWith('signingCredential.')),
    signedBy: text(manifest.signature_info?.common_name),
    issuer: text(manifest.signature_info?.issuer),
    signedAt: text(manifest.signature_info?.time) ?? text(created?.when),
    madeWith: generator?.name
      ? `${generator.name}${generator.version ? ` ${generator.version}` : ''}`
      : text(manifest.claim_generator),
    sourceType: text(created?.digitalSourceType?.split('/').pop()),
    model: text(ours.modelName) ?? agentName(agent),
    installation: text(ours.installation),
    ingredients: (manifest.ingredients ?? []).map((ingredient) => ({
      title: ingredient.title ?? 'Untitled',
      relationship: ingredient.relationship ?? 'componentOf',
      format: text(ingredient.format),
      sha256: ingredient.instance_id?.startsWith('sha256:') ? ingredient.instance_id.slice(7) : null,
      hasCredentials: Boolean(ingredient.active_manifest),
    })),
    edits: actions
      .filter((action) => action !== created && action.action !== 'c2pa.opened')
      .map((action) => ({
        action: action.action ?? 'unknown',
        description: text(action.description),
        by: agentName(action.softwareAgent),
      })),
    problems,
  };
}
