import { z } from 'zod';

/** What the Content Credentials of a file say (POST /api/provenance/verify, the /verify page). */
export const credentialsReportSchema = z.object({
  /** The file carries a C2PA manifest. */
  hasCredentials: z.boolean(),
  /** Its signature and its hashes of the file hold: nothing changed since it was signed. */
  intact: z.boolean(),
  /** Its signer chains to a certificate this installation trusts (its own, or the operator's). */
  trusted: z.boolean(),
  /** The signing certificate's name and organisation, as the certificate gives them. */
  signedBy: z.string().nullable(),
  issuer: z.string().nullable(),
  /** When it was made (the created action's time, or the signature's time stamp), ISO 8601. */
  signedAt: z.string().nullable(),
  /** The program that wrote the manifest, with its version. */
  madeWith: z.string().nullable(),
  /** The IPTC digital source type's term (`trainedAlgorithmicMedia`, `algorithmicMedia`, ...). */
  sourceType: z.string().nullable(),
  /** The model that made it, as its manifest names it. */
  model: z.string().nullable(),
  /** The installation that made it (Reelsmith's own assertion), when it says. */
  installation: z.string().nullable(),
  ingredients: z.array(
    z.object({
      title: z.string(),
      relationship: z.string(),
      format: z.string().nullable(),
      /** The ingredient's SHA-256 when its manifest records one. */
      sha256: z.string().nullable(),
      /** The ingredient carried Content Credentials of its own (a parent video). */
      hasCredentials: z.boolean(),
    }),
  ),
  /** What was done to it after it was made (a finishing action's upscale, its sound), in its own words. */
  edits: z
    .array(z.object({ action: z.string(), description: z.string().nullable(), by: z.string().nullable() }))
    // Reports stored before edits were read have none.
    .default([]),
  /** What failed validation, with the validator's code and words (empty when intact). */
  problems: z.array(z.object({ code: z.string(), explanation: z.string() })),
});
export type CredentialsReport = z.infer<typeof credentialsReportSchema>;

/** The kinds of file /verify reads (C2PA's formats among those Reelsmith makes and takes). */
export const VERIFIABLE_TYPES = ['video/mp4', 'video/quicktime', 'image/jpeg', 'image/png', 'image/webp'] as const;

/** Words for a digital source type's term. */
export function sourceTypeLabel(term: string | null): string | null {
  switch (term) {
    case 'trainedAlgorithmicMedia':
      return 'Made by an AI model';
    case 'algorithmicMedia':
      return 'Made by an algorithm (no AI model)';
    case 'compositeWithTrainedAlgorithmicMedia':
      return 'Joined from parts, some made by an AI model';
    case 'compositeSynthetic':
      return 'Joined from made-up parts';
    case 'digitalCapture':
      return 'Captured by a camera';
    case null:
      return null;
    default:
      return term;
  }
}
