import type { GenerationJob, GenerationRecord } from '../../../shared/generations';

/**
 * The job view of a video (GET /api/video-generation-jobs and /recent): the record's fields under the
 * names the specification's client reads, `textPrompt` for `prompt`.
 */
export function toJobView(record: GenerationRecord): GenerationJob {
  return {
    id: record.id,
    textPrompt: record.prompt,
    status: record.status,
    createdAt: record.createdAt,
    creditsUsed: record.creditsUsed,
    duration: record.duration,
    hasAudio: record.hasAudio,
    progress: record.progress,
    errorMessage: record.errorMessage,
    outputVideoUrl: record.outputVideoUrl,
    expiresAt: record.expiresAt,
    version: record.version,
  };
}
