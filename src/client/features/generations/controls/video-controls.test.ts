import { describe, expect, it } from 'vitest';

import { CAMERA_MOVES, type ModelInfo } from '../../../../shared/models';
import type { RequestControls } from '../../../../shared/model-fit';
import { compareCandidates } from './video-controls';
import { testModel } from '../../../../../tests/support/model-info';

// Compare with another model offers a model only when the server would take the request on it
// (generations.service.ts checks the second model with the same rule, src/shared/model-fit.ts).

const model = (id: string, overrides: Partial<ModelInfo> = {}): ModelInfo =>
  testModel({
    id,
    engine: 'fal',
    name: id,
    description: '',
    inputs: ['text', 'image'],
    durations: [4, 8],
    aspectRatios: ['16:9', '9:16'],
    sound: false,
    cameraMoves: [...CAMERA_MOVES],
    isPreview: false,
    ...overrides,
  });

const FIRST = model('first', { endFrame: true, referenceImages: 3 });
const MODELS = [
  FIRST,
  model('start-only'),
  model('keyframes', { endFrame: true }),
  model('one-reference', { referenceImages: 1 }),
  model('either-or', { endFrame: true, referenceImages: 3, referencesAlone: true }),
  model('no-image', { inputs: ['text'] }),
  model('away', { available: false, endFrame: true, referenceImages: 3 }),
];
const shape = { aspectRatio: '16:9', resolution: '720p', cameraMove: null } as const;

describe('compareCandidates', () => {
  it.each<[string, RequestControls, string[]]>([
    ['text only', {}, ['start-only', 'keyframes', 'one-reference', 'either-or', 'no-image']],
    ['a start image', { imageFile: 'a' }, ['start-only', 'keyframes', 'one-reference', 'either-or']],
    ['a start and an end frame', { imageFile: 'a', endImageFile: 'b' }, ['keyframes', 'either-or']],
    ['one reference image', { referenceImageFiles: ['r'] }, ['one-reference', 'either-or']],
    ['two reference images', { referenceImageFiles: ['r', 's'] }, ['either-or']],
    ['a start image and a reference', { imageFile: 'a', referenceImageFiles: ['r'] }, ['one-reference']],
    ['frames and references', { imageFile: 'a', endImageFile: 'b', referenceImageFiles: ['r'] }, []],
  ])('%s: offers only the models the server takes it on', (_, request, offered) => {
    expect(compareCandidates(MODELS, FIRST, { ...shape, ...request }).map((m) => m.id)).toEqual(offered);
  });

  it('offers nothing until the model and its controls are known', () => {
    expect(compareCandidates(MODELS, undefined, shape)).toEqual([]);
    expect(compareCandidates(MODELS, FIRST, null)).toEqual([]);
  });
});
