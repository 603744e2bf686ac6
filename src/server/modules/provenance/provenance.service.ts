import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ServiceContext } from '../../context';
import type { GenerationInput, GenerationRow } from '../../db/schema';
import { appVersion } from '../../lib/app-version';
import type { CredentialsReport } from '../../../shared/provenance';
import { FILM_MODEL_ID } from '../../../shared/films';
import { type ManifestPlan, readCredentials, signVideo } from '../../provenance/c2pa';
import {
  anchorPemOf,
  certificatesFromPem,
  coseSignerFrom,
  makeInstallationIdentity,
  type SigningIdentityPem,
} from '../../provenance/identity';
import { summarise } from '../../provenance/summary';
import { findInstallationIdentity, keepInstallationIdentity } from './signing-identity.repository';

/** IPTC's digital source types (https://cv.iptc.org/newscodes/digitalsourcetype/), as C2PA names them. */
const IPTC = 'http://cv.iptc.org/newscodes/digitalsourcetype/';
export const SOURCE_TYPES = {
  /** A provider's model: made by a model trained on sampled content. */
  trained: `${IPTC}trainedAlgorithmicMedia`,
  /** The local preview engine: drawn by FFmpeg filters, no trained model (decision 022). */
  algorithmic: `${IPTC}algorithmicMedia`,
  /** A provider's render joined to another (Extend from the last frame). */
  compositeTrained: `${IPTC}compositeWithTrainedAlgorithmicMedia`,
  /** Local previews joined into one. */
  compositeSynthetic: `${IPTC}compositeSynthetic`,
} as const;

/** The visible "AI" label's picture (made by scripts/make-ai-label.mjs; copied beside the bundle). */
const AI_LABEL_FILE = path.join(import.meta.dirname, 'ai-label.png');

/**
 * The picture to draw in a corner of this generation's video (VISIBLE_AI_LABEL), or null: the
 * operator did not ask for it, the local preview engine made it (it is not AI, decision 022), or it
 * is a film, whose shots carry their own label where they are AI (a second would cover the first,
 * and mark a film of previews as AI), or a finished video (issue 48), whose original carries its own.
 */
export function visibleLabelFor(ctx: ServiceContext, row: GenerationRow): string | null {
  if (!ctx.config.provenance.visibleLabel || row.film || row.finish) return null;
  return ctx.engines.info(row.model)?.engine === 'local' ? null : AI_LABEL_FILE;
}

/** The assertion that says which installation, model and provider made the video. */
export const GENERATION_ASSERTION = 'com.reelsmith.generation';
/** The assertion that records the uploader's consent for the people an input shows. */
export const CONSENT_ASSERTION = 'com.reelsmith.consent';

export interface VideoSigner {
  identity: SigningIdentityPem;
  /** Its certificates (DER), the end entity's first. */
  certificates: Buffer[];
  /** The chain's last certificate: the anchor this installation trusts when it reads its own videos. */
  anchorPem: string;
}

const signers = new WeakMap<ServiceContext, Promise<VideoSigner>>();

/**
 * The signer of this installation: the operator's certificate (config), else the installation's own
 * pair, made by the first process that needs it and read from the database by every other.
 */
export function videoSigner(ctx: ServiceContext): Promise<VideoSigner> {
  let found = signers.get(ctx);
  if (!found) {
    found = (async () => {
      const identity =
        ctx.config.provenance.operatorIdentity ??
        (await findInstallationIdentity(ctx.db)) ??
        (await keepInstallationIdentity(ctx.db, await makeInstallationIdentity(ctx.config.publicUrl)));
      const certificates = certificatesFromPem(identity.certificateChainPem);
      const anchorPem = anchorPemOf(identity.certificateChainPem);
      // Checked here (a key that is not the certificate's, an unsupported algorithm) before any video waits on it.
      coseSignerFrom(identity);
      return { identity, certificates, anchorPem };
    })();
    found.catch(() => signers.delete(ctx));
    signers.set(ctx, found);
  }
  return found;
}

async function sha256Of(ctx: ServiceContext, key: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(await ctx.storage.read(key), hash);
  return hash.digest('hex');
}

function sourceTypeOf(engine: string | undefined, joined: boolean): string {
  const local = engine === 'local';
  if (joined) return local ? SOURCE_TYPES.compositeSynthetic : SOURCE_TYPES.compositeTrained;
  return local ? SOURCE_TYPES.algorithmic : SOURCE_TYPES.trained;
}

/** The manifest of a generation's video: what made it, from which inputs, on which installation. */
export async function manifestFor(ctx: ServiceContext, row: GenerationRow, workDir: string): Promise<ManifestPlan> {
  const info = ctx.engines.info(row.model);
  const inputs: { kind: string; input: GenerationInput }[] = [
    ...Object.entries(row.inputs).map(([kind, input]) => ({ kind, input })),
    ...(row.endImage ? [{ kind: 'endImage', input: row.endImage }] : []),
    ...row.referenceImages.map((input) => ({ kind: 'referenceImage', input })),
  ];
  const hashed = await Promise.all(
    inputs.map(async ({ kind, input }) => ({
      kind,
      format: input.contentType,
      sha256: await sha256Of(ctx, input.objectKey),
    })),
  );
  // A film is its shots joined; an Extend made by the worker joins the original and its continuation.
  const joined = Boolean((row.extension && row.extension.method !== 'provider') || row.film);
  const fromFiles: NonNullable<ManifestPlan['fromFiles']> = [];
  const fetch = async (key: string, name: string, definition: Record<string, unknown>) => {
    const file = path.join(workDir, name);
    await pipeline(await ctx.storage.read(key), createWriteStream(file));
    fromFiles.push({ file, format: 'video/mp4', definition });
  };
  const parentKey = row.extension?.baseKey ?? row.finish?.sourceKey;
  if (parentKey)
    await fetch(parentKey, 'provenance-parent.mp4', {
      title: `${row.parentId ?? 'original'}.mp4`,
      relationship: 'parentOf',
    });
  // Each shot once, however often the film uses it, with the Content Credentials it was signed with.
  const shots = new Map(
    (row.film?.parts ?? []).flatMap((part) => (part.kind === 'shot' ? [[part.videoId, part.key]] : [])),
  );
  for (const [index, [videoId, key]] of [...shots].entries())
    await fetch(key, `provenance-shot-${index}.mp4`, { title: `${videoId}.mp4`, relationship: 'componentOf' });
  const finish = row.finish
    ? { row: row.finish, tool: ctx.engines.finishing().find((tool) => tool.id === row.finish?.tool) }
    : null;
  // A finished video was created by its original's model; the finishing is the action after.
  const createdBy = finish
    ? (ctx.engines.info(finish.row.sourceModel)?.name ?? finish.row.sourceModel)
    : (info?.name ?? (row.film ? 'Reelsmith film assembly' : row.model));
  return {
    definition: {
      claim_generator_info: [{ name: 'Reelsmith', version: appVersion() }],
      title: `${row.id}.mp4`,
      format: 'video/mp4',
      assertions: [
        {
          label: 'c2pa.actions.v2',
          data: {
            actions: [
              {
                action: 'c2pa.created',
                when: new Date().toISOString(),
                digitalSourceType: finish
                  ? sourceTypeOf(
                      ctx.engines.info(finish.row.sourceModel)?.engine,
                      finish.row.sourceModel === FILM_MODEL_ID,
                    )
                  : sourceTypeOf(info?.engine, joined),
                softwareAgent: { name: createdBy },
              },
              // A finishing action (issue 48) says what it did and how: this server's FFmpeg work is named as not AI.
              ...(finish
                ? [
                    {
                      action: finish.row.action === 'upscale' ? 'c2pa.resized' : 'c2pa.edited',
                      when: new Date().toISOString(),
                      description: finish.tool?.method ?? finish.row.tool,
                      softwareAgent: { name: finish.tool?.name ?? finish.row.tool },
                      ...(finish.tool?.ai ? { digitalSourceType: SOURCE_TYPES.trained } : {}),
                    },
                  ]
                : []),
            ],
          },
        },
        {
          label: GENERATION_ASSERTION,
          data: {
            installation: ctx.config.publicUrl,
            generationId: row.id,
            model: row.model,
            modelName: info?.name ?? finish?.tool?.name ?? row.model,
            provider: info?.engine ?? 'unknown',
            inputs: hashed,
            ...(ctx.config.provenance.includePrompt ? { description: row.prompt } : {}),
          },
        },
        // The uploader confirmed they are the person shown, or have that person's consent (issue 43).
        ...(row.consent
          ? [
              {
                label: CONSENT_ASSERTION,
                data: {
                  statement: row.consent.statement,
                  version: row.consent.version,
                  confirmedAt: row.consent.confirmedAt,
                },
              },
            ]
          : []),
      ],
    },
    ingredients: hashed.map((input) => ({
      title: `${input.kind} upload`,
      format: input.format,
      relationship: 'inputTo',
      instance_id: `sha256:${input.sha256}`,
    })),
    ...(fromFiles.length > 0 ? { fromFiles } : {}),
  };
}

export interface SignedVideo {
  /** The signed file, beside the original in its work folder. */
  file: string;
  /** What its credentials say, read back from the signed file as any verifier reads them. */
  credentials: CredentialsReport;
}

/**
 * Signs a generation's finished video and reads the result back: a file whose credentials do not
 * validate is never stored (the job fails instead of delivering a mark that says "altered").
 */
export async function signGenerationVideo(ctx: ServiceContext, row: GenerationRow, file: string): Promise<SignedVideo> {
  const workDir = path.dirname(file);
  const [{ identity, anchorPem }, plan] = await Promise.all([videoSigner(ctx), manifestFor(ctx, row, workDir)]);
  const signed = path.join(workDir, 'output-signed.mp4');
  await signVideo(file, signed, plan, identity);
  const credentials = summarise(await readCredentials({ file: signed }, 'video/mp4', anchorPem));
  if (!credentials.intact) {
    const codes = credentials.problems.map((problem) => problem.code).join(', ');
    throw new Error(`the signed video's Content Credentials do not validate (${codes || 'none found'})`);
  }
  return { file: signed, credentials };
}
