import path from 'node:path';
import type { GenerationFilm } from '../db/schema';
import { FILM_MODEL_ID } from '../../shared/films';
import { EngineError, type VideoEngine } from '../engines/engine';
import { labelFontPath } from '../engines/local/label-font';
import { assembleFilm, type FilmPart } from '../media/film-assembly';
import { type FfmpegBinaries, probeMedia } from '../media/ffmpeg';
import type { ObjectStorage } from '../storage';
import { readStoredCopy } from './stored-copy';

// A film's job (issue 47): the copies of its takes and bed are read from storage into the job's work
// folder, each take probed for sound, and the parts joined into one video (media/film-assembly.ts).

/** A ten-minute film takes several minutes on one core; this bounds a broken file. */
const EXPORT_MS = 30 * 60_000;
const PROBE_MS = 60_000;

/** Writes the film into `<workDir>/film.mp4` and answers its path. A copy no longer stored fails it for good. */
export async function exportFilm(
  binaries: FfmpegBinaries,
  storage: ObjectStorage,
  film: GenerationFilm,
  options: { workDir: string; signal: AbortSignal; onProgress?: (fraction: number) => void },
): Promise<string> {
  const fetch = (key: string, name: string) =>
    readStoredCopy(storage, key, path.join(options.workDir, name), {
      signal: options.signal,
      goneMessage: 'A video of this film is no longer stored, so the film cannot be made.',
    });
  const parts: FilmPart[] = [];
  for (const [index, part] of film.parts.entries()) {
    if (part.kind === 'card') {
      parts.push(part);
      continue;
    }
    const file = await fetch(part.key, `part-${index}.mp4`);
    const info = await probeMedia(binaries.ffprobe, file, {
      timeoutMs: PROBE_MS,
      signal: options.signal,
      watchdog: binaries.watchdog,
    });
    if (!info.video) throw new EngineError(`Part ${index + 1} of this film is not a playable video.`, false);
    parts.push({
      kind: 'shot',
      file,
      start: part.start,
      end: part.end,
      hasAudio: info.audio !== null,
      ...(part.caption ? { caption: part.caption } : {}),
    });
  }
  const bed = film.bedKey ? await fetch(film.bedKey, 'bed') : undefined;
  const output = path.join(options.workDir, 'film.mp4');
  await assembleFilm(
    {
      width: film.width,
      height: film.height,
      fps: film.fps,
      parts,
      transitions: film.transitions,
      transitionSeconds: film.transitionSeconds,
      ...(bed ? { bed } : {}),
      fontFile: labelFontPath(),
    },
    {
      binaries,
      workDir: options.workDir,
      output,
      signal: options.signal,
      timeoutMs: EXPORT_MS,
      onProgress: options.onProgress,
    },
  );
  return output;
}

/** A film's job as an engine, so the worker runs it as any job: its parts joined, the join's progress as the job's. */
export function filmEngine(binaries: FfmpegBinaries, storage: ObjectStorage, film: GenerationFilm): VideoEngine {
  return {
    id: FILM_MODEL_ID,
    render: async (_job, context) => ({
      filePath: await exportFilm(binaries, storage, film, {
        workDir: context.workDir,
        signal: context.signal,
        onProgress: (fraction) => context.reportProgress(Math.round(5 + fraction * 90), 'Joining the shots'),
      }),
    }),
  };
}
