import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { CAMERA_MOVES, type ModelInfo } from '../../../shared/models';
import { dismissToast } from '../../components/ui/use-toast';
import type { Uploader, UploaderOptions, UploadFile } from '../../features/uploads/uploader-types';
import { testModel } from '../../../../tests/support/model-info';
import {
  balance,
  createAuthUser,
  enterText,
  json,
  postedBodies,
  preloadPage,
  renderApp,
  stubApi,
} from '../testing/render-app';

// Keyframes and reference images in the generator: the Start frame and End frame slots for a model
// that takes an end frame, the image alone for one that takes only a start frame, a Reference images
// slot up to the model's limit, the price unchanged, and the request carrying the fields.

// Uppy does not run in jsdom: the dialog module is replaced by a stand-in whose open() runs one
// upload the way the dialog does (asking the host for the file's parameters, completing with the file
// as uploaded), for every upload button and slot.
let uploads = 0;
vi.mock('../../features/uploads/uploader', () => ({
  createUploader: (options: UploaderOptions): Uploader => ({
    open: () => {
      void (async () => {
        const file = { id: `f${uploads}`, name: 'a.png', type: 'image/png', size: 3, meta: { name: 'a.png' } };
        const parameters = await options.getUploadParameters(file as unknown as UploadFile);
        const uploaded = { ...file, meta: { ...file.meta, ...parameters.meta } };
        options.onComplete({ successful: [uploaded], failed: [] } as unknown as Parameters<
          UploaderOptions['onComplete']
        >[0]);
      })();
    },
    setRestrictions: () => undefined,
    destroy: () => undefined,
  }),
}));

const base = testModel({
  engine: 'fal',
  description: 'A model',
  inputs: ['text', 'image'],
  durations: [4, 6, 8],
  aspectRatios: ['16:9', '9:16'],
  credits: 2,
  economyCredits: 1,
  cameraMoves: [...CAMERA_MOVES],
  isPreview: false,
});
const START_ONLY: ModelInfo = {
  ...base,
  id: 'start-only',
  name: 'Start only',
  endFrame: false,
  referenceImages: 0,
  isDefault: true,
};
const KEYFRAMES: ModelInfo = {
  ...base,
  id: 'keyframes',
  name: 'Keyframes',
  endFrame: true,
  referenceImages: 0,
  isDefault: false,
};
const REFERENCES: ModelInfo = {
  ...base,
  id: 'references',
  name: 'References',
  endFrame: true,
  referenceImages: 2,
  isDefault: false,
};

// Takes reference images or a start and end frame, not both (fal's Veo 3.1: `referencesAlone`).
const EITHER_OR: ModelInfo = {
  ...base,
  id: 'either-or',
  name: 'Veo 3.1 (fal.ai)',
  endFrame: true,
  referenceImages: 3,
  referencesAlone: true,
  isDefault: false,
};

function stub() {
  let n = 0;
  return stubApi({
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/user/balance': () => balance({ availableCredits: 20, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    'GET /api/models': () => json(200, { models: [START_ONLY, KEYFRAMES, REFERENCES, EITHER_OR] }),
    'GET /api/video-generation': () => json(200, []),
    'POST /api/files/cleanup': () => json(200, { deleted: 0 }),
    'POST /api/objects/upload': () => {
      n += 1;
      uploads = n;
      return json(200, {
        uploadURL: `/api/uploads/tok_${n}?exp=1&sig=abc`,
        objectPath: `/objects/uploads/u${n}`,
        method: 'PUT',
        fields: {},
        headers: {},
      });
    },
    'POST /api/video-generation': () => json(400, { code: 'x', message: 'stop here' }),
  });
}

preloadPage(() => import('./generator'));

/** The Model picker once the catalogue has arrived. */
async function modelPicker(): Promise<HTMLElement> {
  const select = await screen.findByLabelText('Model', {}, { timeout: 10_000 });
  await within(select).findByRole('option', { name: /Keyframes/ }, { timeout: 10_000 });
  return select;
}

afterEach(() => {
  cleanup();
  dismissToast();
  sessionStorage.clear();
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('keyframe and reference slots follow the chosen model', () => {
  it('shows only the image for a start-frame model, Start frame and End frame for a keyframe model', async () => {
    stub();
    const user = userEvent.setup();
    renderApp('/generator');
    const modelSelect = await modelPicker();
    expect(await screen.findByRole('button', { name: /Choose Image/ })).toBeDefined();
    expect(screen.queryByText('Start frame')).toBeNull();
    expect(screen.queryByText('End frame')).toBeNull();
    expect(screen.queryByText(/Reference images/)).toBeNull();
    const priceBefore = screen.getByText('Cost of this video').nextElementSibling?.textContent;

    await user.selectOptions(modelSelect, 'keyframes');
    // The end frame is offered once there is a start frame (the Media Input card's Image): until then
    // there is no card at all, so the description stays on a phone's first screen.
    expect(screen.queryByText('End frame')).toBeNull();
    expect(screen.queryByRole('heading', { name: /Keyframes|Reference images/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: /Choose Image/ }));
    expect(await screen.findByRole('button', { name: /Start frame Ready/ })).toBeDefined();
    expect(screen.getByRole('button', { name: /Choose End frame/ })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Remove image' })).toBeDefined();
    expect(screen.queryByText(/Reference images/)).toBeNull();
    // Keyframes do not change the price.
    expect(screen.getByText('Cost of this video').nextElementSibling?.textContent).toBe(priceBefore);

    await user.selectOptions(modelSelect, 'start-only');
    expect(await screen.findByRole('button', { name: 'Remove image' })).toBeDefined();
    await waitFor(() => expect(screen.queryByText('End frame')).toBeNull());
    expect(screen.queryByText('Start frame')).toBeNull();
  });

  it('offers reference images up to the model’s limit and sends every field', async () => {
    const fetchMock = stub();
    const user = userEvent.setup();
    renderApp('/generator');
    await user.selectOptions(await modelPicker(), 'references');
    await enterText(screen.getByLabelText('Video Description'), 'A red room turns blue');

    await user.click(await screen.findByRole('button', { name: /Choose Image/ }));
    expect(await screen.findByRole('button', { name: /Start frame Ready/ })).toBeDefined();
    await user.click(screen.getByRole('button', { name: /Choose End frame/ }));
    expect(await screen.findByRole('button', { name: /End frame Ready/ })).toBeDefined();

    expect(screen.getByText('(0 of 2)')).toBeDefined();
    await user.click(screen.getByRole('button', { name: /Choose Reference images/ }));
    await user.click(await screen.findByRole('button', { name: /Add a reference image/ }));
    expect(await screen.findByText('(2 of 2)')).toBeDefined();
    // At the limit there is nothing more to add; each one can be removed.
    expect(screen.queryByRole('button', { name: /Add a reference image/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove reference image 2' })).toBeDefined();

    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    await user.click(generate);
    await waitFor(() => expect(postedBodies(fetchMock, '/api/video-generation')).toHaveLength(1));
    expect(postedBodies(fetchMock, '/api/video-generation')[0]).toMatchObject({
      model: 'references',
      imageFile: '/objects/uploads/u1',
      endImageFile: '/objects/uploads/u2',
      referenceImageFiles: ['/objects/uploads/u3', '/objects/uploads/u4'],
    });
  });

  it('sends no end frame once the chosen model takes none', async () => {
    const fetchMock = stub();
    const user = userEvent.setup();
    renderApp('/generator');
    const modelSelect = await modelPicker();
    await user.selectOptions(modelSelect, 'keyframes');
    await enterText(screen.getByLabelText('Video Description'), 'A red room');
    await user.click(await screen.findByRole('button', { name: /Choose Image/ }));
    await user.click(await screen.findByRole('button', { name: /Choose End frame/ }));
    expect(await screen.findByRole('button', { name: /End frame Ready/ })).toBeDefined();
    await user.selectOptions(modelSelect, 'start-only');
    // The start frame stays as the image.
    expect(await screen.findByRole('button', { name: 'Remove image' })).toBeDefined();
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    await user.click(generate);
    await waitFor(() => expect(postedBodies(fetchMock, '/api/video-generation')).toHaveLength(1));
    expect(postedBodies(fetchMock, '/api/video-generation')[0]).toMatchObject({
      model: 'start-only',
      imageFile: '/objects/uploads/u1',
      endImageFile: null,
      referenceImageFiles: [],
    });
  });
});

describe('a model that takes reference images or frames, not both (Veo 3.1 on fal.ai)', () => {
  const FRAMES_NOTE =
    'Veo 3.1 (fal.ai) takes reference images or a start and end frame, not both. Remove the reference images to use frames.';
  const REFERENCES_NOTE =
    'Veo 3.1 (fal.ai) takes a start and end frame or reference images, not both. Remove the frames to add reference images.';
  const IMAGE_NOTE =
    'Veo 3.1 (fal.ai) takes an image or reference images, not both. Remove the reference images to add one.';

  it('with references set, the frame slots and the image say why they are unavailable, and the way out clears them', async () => {
    stub();
    const user = userEvent.setup();
    renderApp('/generator');
    await user.selectOptions(await modelPicker(), 'either-or');
    await user.click(await screen.findByRole('button', { name: /Choose Reference images/ }));
    expect(await screen.findByText(FRAMES_NOTE)).toBeDefined();
    expect(screen.getByText(IMAGE_NOTE)).toBeDefined();
    expect(screen.queryByRole('button', { name: /Choose Image/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /End frame/ })).toBeNull();
    // More references are still offered up to the limit.
    expect(screen.getByRole('button', { name: /Add a reference image/ })).toBeDefined();

    await user.click(screen.getByRole('button', { name: 'Remove reference images' }));
    expect(await screen.findByRole('button', { name: /Choose Image/ })).toBeDefined();
    expect(screen.queryByText(FRAMES_NOTE)).toBeNull();
    expect(screen.queryByText(IMAGE_NOTE)).toBeNull();
  });

  it('with frames set, the references say why they are unavailable; Remove frames clears the start and end', async () => {
    const fetchMock = stub();
    const user = userEvent.setup();
    renderApp('/generator');
    await user.selectOptions(await modelPicker(), 'either-or');
    await enterText(screen.getByLabelText('Video Description'), 'A red room turns blue');
    await user.click(await screen.findByRole('button', { name: /Choose Image/ }));
    await user.click(await screen.findByRole('button', { name: /Choose End frame/ }));
    expect(await screen.findByRole('button', { name: /End frame Ready/ })).toBeDefined();
    expect(screen.getByText(REFERENCES_NOTE)).toBeDefined();
    expect(screen.queryByRole('button', { name: /Choose Reference images/ })).toBeNull();
    // The frames alone are a request the model takes.
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));

    await user.click(screen.getByRole('button', { name: 'Remove frames' }));
    expect(await screen.findByRole('button', { name: /Choose Reference images/ })).toBeDefined();
    expect(screen.queryByText(REFERENCES_NOTE)).toBeNull();
    expect(screen.queryByRole('button', { name: /Start frame Ready/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: /Choose Reference images/ }));
    expect(await screen.findByText('(1 of 3)')).toBeDefined();
    await user.click(generate);
    await waitFor(() => expect(postedBodies(fetchMock, '/api/video-generation')).toHaveLength(1));
    expect(postedBodies(fetchMock, '/api/video-generation')[0]).toMatchObject({
      model: 'either-or',
      imageFile: null,
      endImageFile: null,
      referenceImageFiles: ['/objects/uploads/u3'],
    });
  });

  it('both set by a change of model: each side says why, and Generate waits with the server’s sentence', async () => {
    stub();
    const user = userEvent.setup();
    renderApp('/generator');
    const modelSelect = await modelPicker();
    await user.selectOptions(modelSelect, 'references');
    await enterText(screen.getByLabelText('Video Description'), 'A red room turns blue');
    await user.click(await screen.findByRole('button', { name: /Choose Image/ }));
    await user.click(await screen.findByRole('button', { name: /Choose Reference images/ }));
    expect(await screen.findByText('(1 of 2)')).toBeDefined();

    await user.selectOptions(modelSelect, 'either-or');
    expect(await screen.findByText(FRAMES_NOTE)).toBeDefined();
    expect(screen.getByText(REFERENCES_NOTE)).toBeDefined();
    expect(
      screen.getByText(
        'Veo 3.1 (fal.ai) takes reference images or a start and end frame, not both in one video. Remove one of them.',
      ),
    ).toBeDefined();
    expect(screen.getByRole('button', { name: 'Generate Video' }).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Remove frames' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Generate Video' }).hasAttribute('disabled')).toBe(false),
    );
  });
});

describe('Compare with another model follows the keyframes', () => {
  const offered = () =>
    within(screen.getByLabelText('Compare with another model'))
      .getAllByRole('option')
      .map((o) => o.getAttribute('value'))
      .filter(Boolean);

  it('offers only the models that take the end frame, the references and the rule between them', async () => {
    stub();
    const user = userEvent.setup();
    renderApp('/generator');
    const modelSelect = await modelPicker();
    await user.selectOptions(modelSelect, 'keyframes');
    await user.click(await screen.findByRole('button', { name: /Choose Image/ }));
    await waitFor(() => expect(offered()).toEqual(['start-only', 'references', 'either-or']));
    // An end frame: the start-only model cannot take it.
    await user.click(await screen.findByRole('button', { name: /Choose End frame/ }));
    await waitFor(() => expect(offered()).toEqual(['references', 'either-or']));

    // Frames and a reference image: the model without references and the either-or one cannot take them.
    await user.selectOptions(modelSelect, 'references');
    await user.click(await screen.findByRole('button', { name: /Choose Reference images/ }));
    expect(await screen.findByText('(1 of 2)')).toBeDefined();
    await waitFor(() => expect(screen.queryByLabelText('Compare with another model')).toBeNull());

    // References alone: the either-or model takes them.
    await user.click(screen.getByRole('button', { name: 'Remove image' }));
    await waitFor(() => expect(offered()).toEqual(['either-or']));
  });
});
