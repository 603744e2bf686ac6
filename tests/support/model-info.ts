import type { ModelInfo } from '../../src/shared/models';

/**
 * One entry of GET /api/models for a test: the local preview engine (every input, one 10 s length at
 * 720p in every shape, 1 credit, nothing beyond a start image) with the test's own differences.
 */
export function testModel(overrides: Partial<ModelInfo> = {}): ModelInfo {
  return {
    id: 'local',
    engine: 'local',
    name: 'Local preview engine',
    description: 'Preview',
    available: true,
    reason: null,
    inputs: ['text', 'image', 'video', 'audio'],
    durations: [10],
    aspectRatios: ['16:9', '9:16', '1:1'],
    resolutions: ['720p'],
    sound: true,
    credits: 1,
    economyCredits: 0.5,
    pricePer: 'video',
    resolutionCredits: {},
    endFrame: false,
    cameraMoves: [],
    referenceImages: 0,
    referencesAlone: false,
    character: 'description',
    isDefault: false,
    isPreview: true,
    ...overrides,
    // Where a test gives the model reference images, it keeps a character by them, as the server says.
    ...(overrides.character === undefined && (overrides.referenceImages ?? 0) > 0
      ? { character: 'references' as const }
      : {}),
  };
}
