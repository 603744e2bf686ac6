import type { GenerationFilm, GenerationFinish, GenerationRow } from '../../db/schema';

/**
 * Whether a video's file is there to play, download, continue or extend: completed with its file,
 * and either kept or before its expiry (the sweeper deletes the file at the expiry).
 */
export function hasLiveOutput(
  row: Pick<GenerationRow, 'status' | 'outputKey' | 'expiresAt' | 'kept'>,
  now: Date,
): row is typeof row & { outputKey: string } {
  if (row.status !== 'completed' || !row.outputKey) return false;
  return row.kept || (row.expiresAt !== null && row.expiresAt > now);
}

/**
 * How long a signed link to a kept video's file (which has no expiry) is good for: to the end of the
 * next UTC day, so the link stays the same all day (the lists' answers and the browser's cache with it).
 */
export function keptLinkExpiry(now: Date): Date {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(day + 2 * 86_400_000);
}

/** The copies a film's job holds (its takes and bed), removed once it is stored, or with its record. */
export function filmCopies(film: GenerationFilm): string[] {
  return [
    ...film.parts.flatMap((part) => (part.kind === 'shot' ? [part.key] : [])),
    ...(film.bedKey ? [film.bedKey] : []),
  ];
}

/** The copies a finishing action's job holds (the original's video, the recording or picture), removed as a film's are. */
export function finishCopies(finish: GenerationFinish): string[] {
  return [finish.sourceKey, ...(finish.audio ? [finish.audio.key] : []), ...(finish.image ? [finish.image.key] : [])];
}

/** The copies a job was given to work on (Extend's original, a film's takes and bed, a finishing action's files). */
export function jobCopiesOf(row: Pick<GenerationRow, 'extension' | 'film' | 'finish'>): string[] {
  return [
    ...(row.extension ? [row.extension.baseKey] : []),
    ...(row.film ? filmCopies(row.film) : []),
    ...(row.finish ? finishCopies(row.finish) : []),
  ];
}

/** Every file a generation's record holds in storage: its video and poster, and what its job was given to work on. */
export function storedKeysOf(
  row: Pick<GenerationRow, 'outputKey' | 'posterKey' | 'extension' | 'film' | 'finish'>,
): string[] {
  return [...(row.outputKey ? [row.outputKey] : []), ...(row.posterKey ? [row.posterKey] : []), ...jobCopiesOf(row)];
}
