import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { testModel } from '../../../../tests/support/model-info';
import type { GenerationRecord } from '../../../shared/generations';
import type { Storyboard, StoryboardRequest, StoryboardShot } from '../../../shared/storyboards';
import { createAuthUser, json, pathOf, preloadPage, renderApp, resetAfterTest } from '../testing/render-app';

const BOARD_ID = '5b0e8f3c-6a2d-4e71-9f14-c3d2a1b0e9f8';
const PATH = `/api/storyboards/${BOARD_ID}`;
const MODEL = testModel({ id: 'local', isDefault: true, durations: [2, 4], resolutions: ['480p', '720p'], credits: 2 });

function createShot(overrides: Partial<StoryboardShot> = {}): StoryboardShot {
  return {
    id: crypto.randomUUID(),
    description: '',
    model: 'local',
    aspectRatio: '16:9',
    resolution: '480p',
    cameraMove: null,
    duration: 2,
    hasAudio: false,
    imageFile: null,
    endImageFile: null,
    referenceImageFiles: [],
    fromPrevious: false,
    chosenTakeId: null,
    trimStart: null,
    trimEnd: null,
    caption: null,
    transition: 'cut',
    state: 'missing',
    takes: [],
    usedTakeId: null,
    ...overrides,
  };
}

function createTake(overrides: Partial<GenerationRecord> = {}): GenerationRecord {
  return {
    id: crypto.randomUUID(),
    prompt: 'A take',
    status: 'completed',
    creditsUsed: 2,
    duration: 2,
    model: 'local',
    hasAudio: false,
    outputVideoUrl: '/objects/videos/take.mp4',
    posterUrl: null,
    watchPath: null,
    createdAt: '2026-03-18T12:00:00.000Z',
    expiresAt: null,
    progress: 100,
    progressStage: null,
    errorMessage: null,
    ...overrides,
  };
}

function createBoard(shots: StoryboardShot[], overrides: Partial<Storyboard> = {}): Storyboard {
  return {
    id: BOARD_ID,
    name: 'The lighthouse',
    version: 1,
    aspectRatio: '16:9',
    resolution: '720p',
    titleCard: null,
    transitionSeconds: 0.5,
    bedFile: null,
    shots,
    creditsToRender: 2 * shots.filter((shot) => shot.state === 'missing').length,
    films: [],
    createdAt: '2026-03-18T12:00:00.000Z',
    updatedAt: '2026-03-18T12:00:00.000Z',
    ...overrides,
  };
}

/**
 * The server's storyboard routes as the editor uses them: GET answers the board, PUT stores the body
 * it is sent (moving the version) and answers the board it makes.
 */
function serveBoard(initial: Storyboard) {
  let board = initial;
  const puts: StoryboardRequest[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const route = `${init?.method ?? 'GET'} ${pathOf(input)}`;
    if (route === 'GET /api/auth/user') return json(200, createAuthUser());
    if (route === 'GET /api/models') return json(200, { models: [MODEL] });
    if (route === `GET ${PATH}`) return json(200, board);
    if (route === `PUT ${PATH}`) {
      const body = JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as StoryboardRequest;
      puts.push(body);
      const shots = (body.shots ?? []).map((shot) => {
        const stored = board.shots.find((s) => s.id === shot.id);
        return createShot({
          ...shot,
          state: stored?.state ?? 'missing',
          takes: stored?.takes ?? [],
          usedTakeId: stored?.usedTakeId ?? null,
        });
      });
      board = createBoard(shots, { name: body.name ?? board.name, version: board.version + 1 });
      return json(200, board);
    }
    return json(404, { code: 'not_found', message: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  renderApp(`/storyboards/${BOARD_ID}`);
  return { puts, lastPut: () => puts.at(-1) };
}

const panel = () => screen.getByRole('region', { name: 'Film and export' });

preloadPage(() => import('./storyboard'));
afterEach(resetAfterTest);

describe('the storyboard editor', () => {
  it('adds, duplicates and deletes shots, saving each change at once on the version it was made from', async () => {
    const user = userEvent.setup();
    const first = createShot({ description: 'The keeper climbs the stairs' });
    const { puts, lastPut } = serveBoard(createBoard([first]));
    await screen.findByRole('heading', { name: 'Shot 1' });

    await user.click(screen.getByRole('button', { name: 'Add shot' }));
    await waitFor(() => expect(lastPut()?.shots).toHaveLength(2));
    expect(lastPut()?.version).toBe(1);
    expect(screen.getByLabelText('What happens in Shot 2')).toBe(document.activeElement);
    await screen.findByText('Saved');

    await user.click(screen.getByRole('button', { name: 'Duplicate Shot 1' }));
    await waitFor(() => expect(lastPut()?.shots).toHaveLength(3));
    const [kept, copy] = lastPut()?.shots ?? [];
    expect(kept?.id).toBe(first.id);
    expect(copy?.description).toBe('The keeper climbs the stairs');
    expect(copy?.id).not.toBe(first.id);
    expect(lastPut()?.version).toBe(2);
    await screen.findByText('Saved');

    await user.click(screen.getByRole('button', { name: 'Delete Shot 3' }));
    await waitFor(() => expect(lastPut()?.shots?.map((shot) => shot.id)).toEqual([first.id, copy?.id]));
    expect(lastPut()?.version).toBe(3);
    expect(screen.queryByRole('heading', { name: 'Shot 3' })).toBeNull();
    expect(puts).toHaveLength(3);
  });

  it('moves a shot from its handle by keyboard, says so, keeps the focus on it and saves the new order', async () => {
    const user = userEvent.setup();
    const [a, b, c] = [
      createShot({ description: 'Dawn' }),
      createShot({ description: 'Noon' }),
      createShot({ description: 'Dusk' }),
    ];
    const { lastPut } = serveBoard(createBoard([a, b, c]));
    const handle = await screen.findByRole('button', { name: 'Reorder Shot 3' });

    handle.focus();
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    await waitFor(() => expect(lastPut()?.shots?.map((shot) => shot.id)).toEqual([a.id, c.id, b.id]));
    expect(screen.getByText('Shot 3 moved to position 2 of 3.')).toBeDefined();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Reorder Shot 2' }));
    expect(screen.getByLabelText<HTMLTextAreaElement>('What happens in Shot 2').value).toBe('Dusk');

    // Space picks it up, the arrows move it, Space drops it.
    await user.keyboard(' ');
    expect(screen.getByRole('button', { name: 'Reorder Shot 2' }).getAttribute('aria-pressed')).toBe('true');
    await user.keyboard('{ArrowUp}');
    await user.keyboard(' ');
    await waitFor(() => expect(lastPut()?.shots?.map((shot) => shot.id)).toEqual([c.id, a.id, b.id]));
    expect(screen.getByText('Shot 1 dropped at position 1 of 3.')).toBeDefined();
    expect(screen.getByLabelText<HTMLTextAreaElement>('What happens in Shot 1').value).toBe('Dusk');
  });

  it('prices each shot as the server does, and Render missing shots at their sum', async () => {
    const ready = createShot({ description: 'Dawn', state: 'ready' });
    const take = createTake();
    ready.takes = [take];
    ready.usedTakeId = take.id;
    serveBoard(
      createBoard([
        ready,
        createShot({ description: 'Noon' }),
        createShot({ description: 'Dusk', duration: 4 }),
        createShot({ description: 'Night' }),
      ]),
    );
    await screen.findByRole('heading', { name: 'Shot 4' });
    for (const name of ['Shot 2', 'Shot 3', 'Shot 4'])
      expect(screen.getByRole('button', { name: `Render · 2 credits, ${name}` })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Render again · 2 credits, Shot 1' })).toBeDefined();
    // Three missing shots at 2 credits each: the server's creditsToRender says 6 too.
    expect(within(panel()).getByRole('button', { name: 'Render missing shots (3) · 6 credits' })).toBeDefined();
  });

  it('keeps Make the film disabled, saying why, until every shot has a finished take', async () => {
    const ready = createShot({ description: 'Dawn', state: 'ready' });
    const take = createTake();
    ready.takes = [take];
    ready.usedTakeId = take.id;
    serveBoard(createBoard([ready, createShot({ description: 'Noon' })]));
    const make = await within(await screen.findByRole('region', { name: 'Film and export' })).findByRole('button', {
      name: 'Make the film',
    });
    expect(make.hasAttribute('disabled')).toBe(true);
    const reason = document.getElementById(make.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe(
      'Shot 2 has no finished take yet. Render it (or delete the shot), then make the film.',
    );
    expect(within(screen.getByRole('listitem', { name: 'Take 1, in use' })).getByText('In use')).toBeDefined();
  });
});
