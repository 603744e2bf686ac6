import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';

import type { GenerationJob, GenerationRecord } from '../../../../shared/generations';
import { applyGenerationChange, applyGenerationDeleted, applyGenerationsSnapshot } from './live-cache';
import { generationJobsQueryKey, generationsQueryKey, recentJobsQueryKey } from './query-keys';

function record(id: string, overrides: Partial<GenerationRecord> = {}): GenerationRecord {
  return {
    id,
    prompt: `Prompt ${id}`,
    status: 'pending',
    creditsUsed: 1,
    duration: 10,
    model: 'local',
    hasAudio: false,
    outputVideoUrl: null,
    posterUrl: null,
    createdAt: '2026-11-23T18:00:00.000Z',
    expiresAt: null,
    progress: 0,
    progressStage: 'Waiting in queue',
    errorMessage: null,
    ...overrides,
  };
}

describe('live updates in the query caches', () => {
  it('puts a new video first in every list, and Recent History keeps 3', () => {
    const client = new QueryClient();
    applyGenerationsSnapshot(client, [record('c'), record('b'), record('a')]);
    applyGenerationChange(client, record('d'));
    expect(client.getQueryData<GenerationRecord[]>(generationsQueryKey)?.map((v) => v.id)).toEqual(['d', 'c', 'b', 'a']);
    expect(client.getQueryData<GenerationJob[]>(generationJobsQueryKey)?.map((v) => v.id)).toEqual(['d', 'c', 'b', 'a']);
    expect(client.getQueryData<GenerationJob[]>(recentJobsQueryKey)?.map((v) => v.id)).toEqual(['d', 'c', 'b']);
  });

  it('replaces a video in place when its progress or status changes, and removes a deleted one', () => {
    const client = new QueryClient();
    applyGenerationsSnapshot(client, [record('b'), record('a')]);
    applyGenerationChange(client, record('a', { status: 'completed', progress: 100, outputVideoUrl: '/api/media/x' }));
    expect(client.getQueryData<GenerationRecord[]>(generationsQueryKey)?.map((v) => [v.id, v.status])).toEqual([
      ['b', 'pending'],
      ['a', 'completed'],
    ]);
    expect(client.getQueryData<GenerationJob[]>(generationJobsQueryKey)?.[1]).toMatchObject({ id: 'a', textPrompt: 'Prompt a', outputVideoUrl: '/api/media/x' });
    applyGenerationDeleted(client, 'b');
    expect(client.getQueryData<GenerationRecord[]>(generationsQueryKey)?.map((v) => v.id)).toEqual(['a']);
  });

  it('refuses an event that is not a generation record', () => {
    const client = new QueryClient();
    expect(() => applyGenerationChange(client, { id: 'x' })).toThrow();
  });
});
