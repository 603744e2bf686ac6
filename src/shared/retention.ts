/** Uploaded inputs and generated videos are kept this long, then deleted (spec section 1). */
export const RETENTION_MS = 24 * 60 * 60 * 1000;

/** When something created (or completed) at `from` expires. */
export function expiryFrom(from: Date): Date {
  return new Date(from.getTime() + RETENTION_MS);
}
