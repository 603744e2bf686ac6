import { describe, expect, it } from 'vitest';

import type { GenerationRecord } from '../../../shared/generations';
import { DEFAULT_GALLERY_QUERY, filterGallery, type GalleryQuery, isFiltering } from './gallery-filter';

function createVideo(overrides: Partial<GenerationRecord> = {}): GenerationRecord {
  return {
    id: 'video_1',
    prompt: 'A lighthouse at dusk',
    status: 'completed',
    creditsUsed: 1,
    duration: 10,
    model: 'local',
    hasAudio: false,
    outputVideoUrl: '/objects/video_1.mp4',
    posterUrl: '/objects/video_1.jpg',
    watchPath: null,
    createdAt: '2026-03-10T12:00:00.000Z',
    // Still within its 24 hours whenever the test runs.
    expiresAt: new Date(Date.now() + 12 * 3600_000).toISOString(),
    progress: 100,
    progressStage: 'Completed',
    errorMessage: null,
    ...overrides,
  };
}

const lighthouse = createVideo();
const forest = createVideo({
  id: 'video_2',
  prompt: 'Misty FOREST with birdsong',
  status: 'processing',
  creditsUsed: 3,
  duration: 8,
  createdAt: '2026-03-12T08:00:00.000Z',
});
const city = createVideo({
  id: 'video_3',
  prompt: 'Neon city in the rain',
  status: 'failed',
  creditsUsed: 3,
  duration: 20,
  createdAt: '2026-03-11T08:00:00.000Z',
});
const desert = createVideo({
  id: 'video_4',
  prompt: 'Desert dunes, forested oasis',
  status: 'pending',
  creditsUsed: 0.5,
  duration: 20,
  createdAt: '2026-03-09T08:00:00.000Z',
});
const videos = [lighthouse, forest, city, desert];

const query = (overrides: Partial<GalleryQuery>): GalleryQuery => ({ ...DEFAULT_GALLERY_QUERY, ...overrides });
const ids = (list: GenerationRecord[]) => list.map((video) => video.id);

describe('filterGallery', () => {
  it('shows every video newest first by default', () => {
    expect(ids(filterGallery(videos, DEFAULT_GALLERY_QUERY))).toEqual(['video_2', 'video_3', 'video_1', 'video_4']);
  });

  it('matches a substring of the prompt in any case', () => {
    expect(ids(filterGallery(videos, query({ search: 'forest' })))).toEqual(['video_2', 'video_4']);
    expect(ids(filterGallery(videos, query({ search: 'NEON CITY' })))).toEqual(['video_3']);
    expect(ids(filterGallery(videos, query({ search: '  rain ' })))).toEqual(['video_3']);
    expect(filterGallery(videos, query({ search: 'volcano' }))).toEqual([]);
  });

  it('keeps only the exact status unless the filter is all', () => {
    expect(ids(filterGallery(videos, query({ status: 'completed' })))).toEqual(['video_1']);
    expect(ids(filterGallery(videos, query({ status: 'processing' })))).toEqual(['video_2']);
    expect(ids(filterGallery(videos, query({ status: 'failed' })))).toEqual(['video_3']);
    expect(ids(filterGallery(videos, query({ status: 'pending' })))).toEqual(['video_4']);
  });

  it('leaves a video past its 24 hours out of the completed filter', () => {
    const expired = createVideo({ id: 'video_9', expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expect(ids(filterGallery([lighthouse, expired], query({ status: 'completed' })))).toEqual(['video_1']);
    expect(ids(filterGallery([lighthouse, expired], query({ status: 'all' })))).toEqual(['video_1', 'video_9']);
  });

  it('combines the search and the status filter', () => {
    expect(ids(filterGallery(videos, query({ search: 'forest', status: 'pending' })))).toEqual(['video_4']);
    expect(filterGallery(videos, query({ search: 'lighthouse', status: 'failed' }))).toEqual([]);
  });

  it('sorts oldest first', () => {
    expect(ids(filterGallery(videos, query({ sort: 'oldest' })))).toEqual(['video_4', 'video_1', 'video_3', 'video_2']);
  });

  it('sorts by credits, highest first, newest first among equals', () => {
    expect(ids(filterGallery(videos, query({ sort: 'credits' })))).toEqual([
      'video_2',
      'video_3',
      'video_1',
      'video_4',
    ]);
  });

  it('sorts by duration, longest first, newest first among equals', () => {
    expect(ids(filterGallery(videos, query({ sort: 'duration' })))).toEqual([
      'video_3',
      'video_4',
      'video_1',
      'video_2',
    ]);
  });

  it('leaves the list it was given untouched', () => {
    const list = [desert, lighthouse];
    filterGallery(list, query({ sort: 'newest' }));
    expect(ids(list)).toEqual(['video_4', 'video_1']);
  });
});

describe('isFiltering', () => {
  it('is true only when a search or a status narrows the list', () => {
    expect(isFiltering(DEFAULT_GALLERY_QUERY)).toBe(false);
    expect(isFiltering(query({ sort: 'credits' }))).toBe(false);
    expect(isFiltering(query({ search: '   ' }))).toBe(false);
    expect(isFiltering(query({ search: 'sea' }))).toBe(true);
    expect(isFiltering(query({ status: 'failed' }))).toBe(true);
  });
});
