import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';

import type { GenerationRecord } from '../../../../shared/generations';
import { latestVideos } from './get-generations';
import { applyGenerationChange, applyGenerationDeleted, applyGenerationsSnapshot } from './live-cache';
import { generationsQueryKey } from './query-keys';

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
    watchPath: null,
    createdAt: '2026-11-23T18:00:00.000Z',
    expiresAt: null,
    progress: 0,
    progressStage: 'Waiting in queue',
    errorMessage: null,
    ...overrides,
  };
}

/** The one cached list of videos. */
const list = (client: QueryClient) => client.getQueryData<GenerationRecord[]>(generationsQueryKey) ?? [];

describe('live updates in the query cache', () => {
  it('puts a new video first in the list, and Recent History shows its latest 3', () => {
    const client = new QueryClient();
    applyGenerationsSnapshot(client, [record('c'), record('b'), record('a')]);
    applyGenerationChange(client, record('d'));
    expect(client.getQueryData<GenerationRecord[]>(generationsQueryKey)?.map((v) => v.id)).toEqual([
      'd',
      'c',
      'b',
      'a',
    ]);
    // Recent History is the latest three of the same list.
    expect(latestVideos(list(client)).map((v) => v.id)).toEqual(['d', 'c', 'b']);
  });

  it('replaces a video in place when its progress or status changes, and removes a deleted one', () => {
    const client = new QueryClient();
    applyGenerationsSnapshot(client, [record('b'), record('a')]);
    applyGenerationChange(client, record('a', { status: 'completed', progress: 100, outputVideoUrl: '/api/media/x' }));
    expect(client.getQueryData<GenerationRecord[]>(generationsQueryKey)?.map((v) => [v.id, v.status])).toEqual([
      ['b', 'pending'],
      ['a', 'completed'],
    ]);
    expect(list(client)[1]).toMatchObject({ id: 'a', prompt: 'Prompt a', outputVideoUrl: '/api/media/x' });
    applyGenerationDeleted(client, 'b');
    expect(client.getQueryData<GenerationRecord[]>(generationsQueryKey)?.map((v) => v.id)).toEqual(['a']);
  });

  it('takes a deleted video out of the list, so Recent History shows the next one without asking the server', () => {
    const client = new QueryClient();
    applyGenerationsSnapshot(client, [record('d'), record('c'), record('b'), record('a')]);
    applyGenerationDeleted(client, 'c');
    expect(latestVideos(list(client)).map((v) => v.id)).toEqual(['d', 'b', 'a']);
  });

  it('keeps the newer copy when an older one arrives later (the answer to Generate after a live event)', () => {
    const client = new QueryClient();
    applyGenerationsSnapshot(client, [record('a')]);
    const running = record('b', {
      version: 3,
      status: 'processing',
      progress: 40,
      progressStage: 'Rendering frames',
      startedAt: '2026-11-23T18:00:05.000Z',
    });
    applyGenerationChange(client, running);
    applyGenerationChange(client, record('b', { version: 2, queuePosition: 1 }));
    expect(client.getQueryData<GenerationRecord[]>(generationsQueryKey)?.[0]).toEqual(running);
    expect(latestVideos(list(client)).map((v) => [v.id, v.status, v.progress])).toEqual([
      ['b', 'processing', 40],
      ['a', 'pending', 0],
    ]);
  });

  it('takes a copy of the same version: the queue place and estimates move without a change of the row', () => {
    const client = new QueryClient();
    applyGenerationsSnapshot(client, []);
    applyGenerationChange(client, record('a', { version: 2, queuePosition: 3 }));
    applyGenerationChange(client, record('a', { version: 2, queuePosition: 2 }));
    expect(client.getQueryData<GenerationRecord[]>(generationsQueryKey)?.map((v) => v.queuePosition)).toEqual([2]);
  });

  it('refuses an event that is not a generation record', () => {
    const client = new QueryClient();
    expect(() => applyGenerationChange(client, { id: 'x' })).toThrow();
  });
});
