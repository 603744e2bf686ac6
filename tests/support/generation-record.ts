import type { GenerationRecord } from '../../src/shared/generations';

/**
 * One record of GET /api/video-generation for a client test: a finished 5 s video 'v1' on the local
 * engine, made a minute ago and playable for an hour, with the test's own differences.
 */
export function testVideo(overrides: Partial<GenerationRecord> = {}): GenerationRecord {
  return {
    id: 'v1',
    prompt: 'Paper boats on a pond',
    status: 'completed',
    creditsUsed: 1,
    duration: 5,
    model: 'local',
    hasAudio: false,
    outputVideoUrl: '/api/media/v1',
    posterUrl: null,
    watchPath: null,
    createdAt: new Date(Date.now() - 60_000).toISOString(),
    expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    progress: 100,
    progressStage: 'Completed',
    errorMessage: null,
    parentId: null,
    ...overrides,
  };
}
