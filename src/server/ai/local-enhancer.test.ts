import { describe, expect, it } from 'vitest';
import { type EnhanceInput, enhanceLocally } from './local-enhancer';

const base: EnhanceInput = {
  userPrompt: 'A lighthouse on a rocky coast',
  style: 'cinematic',
  duration: 'medium',
  mood: 'calm',
};
const kindsOf = (input: Partial<EnhanceInput>) =>
  enhanceLocally({ ...base, ...input }).improvements.map((i) => i.split(':')[0]);

describe('the local enhancer', () => {
  it("starts with the user's text verbatim (trimmed) and adds each improvement's phrase after it", () => {
    for (const userPrompt of [
      '  A dog surfing!  ',
      'Is this a cat?',
      'a girl whispers to her cat,',
      'Trailing dots...',
    ]) {
      const result = enhanceLocally({ ...base, userPrompt });
      expect(result.enhancedPrompt.startsWith(userPrompt.trim())).toBe(true);
      expect(result.improvements.length).toBeGreaterThan(0);
      const added = result.enhancedPrompt.slice(userPrompt.trim().length).toLowerCase();
      for (const improvement of result.improvements) {
        expect(improvement).toMatch(/^Added [a-z ]+: \S/);
        expect(added).toContain((improvement.split(': ')[1] ?? '').toLowerCase());
      }
    }
  });

  it('adds shot type, camera movement, lighting, lens and style, and pacing to a bare prompt', () => {
    expect(kindsOf({})).toEqual([
      'Added shot type and framing',
      'Added camera movement',
      'Added lighting',
      'Added lens and style',
      'Added pacing',
    ]);
  });

  it('adds nothing of a kind the user already gave', () => {
    const without = (userPrompt: string) => kindsOf({ userPrompt });
    expect(without('A close-up of a lighthouse')).not.toContain('Added shot type and framing');
    expect(without('Wide shot of a lighthouse')).not.toContain('Added shot type and framing');
    expect(without('Drone footage of a lighthouse')).not.toContain('Added camera movement');
    expect(without('Drone footage of a lighthouse')).not.toContain('Added shot type and framing');
    expect(without('Camera pans across a lighthouse')).not.toContain('Added camera movement');
    expect(without('Slow zoom on a lighthouse')).not.toContain('Added camera movement');
    expect(without('A lighthouse at golden hour')).not.toContain('Added lighting');
    expect(without('A lighthouse under neon signs')).not.toContain('Added lighting');
    expect(without('A lighthouse, 35mm')).not.toContain('Added lens and style');
    expect(without('A lighthouse in slow motion')).not.toContain('Added pacing');
    const complete = enhanceLocally({
      ...base,
      userPrompt: 'Close-up of a lighthouse, slow dolly-in, golden hour, 35mm lens, slow motion',
    });
    expect(complete).toEqual({
      enhancedPrompt: 'Close-up of a lighthouse, slow dolly-in, golden hour, 35mm lens, slow motion',
      improvements: [],
      confidence: 95,
    });
  });

  it('is deterministic, and different prompts get different phrasings', () => {
    expect(enhanceLocally(base)).toEqual(enhanceLocally({ ...base }));
    const phrasings = new Set(
      ['A fox', 'A whale', 'A tram', 'A kite', 'A violinist', 'A market', 'A desert'].map((p) =>
        enhanceLocally({ ...base, userPrompt: p }).enhancedPrompt.slice(p.length),
      ),
    );
    expect(phrasings.size).toBeGreaterThan(2);
  });

  it('keeps the lens and style consistent with the requested style', () => {
    const look = (style: string) =>
      enhanceLocally({ ...base, style }).improvements.find((i) => i.startsWith('Added lens and style')) ?? '';
    expect(look('anime')).toMatch(/anime/);
    expect(look('documentary')).toMatch(/documentary/);
    expect(look('vintage')).toMatch(/vintage|retro/);
    expect(look('realistic')).toMatch(/photorealistic|lifelike/);
    expect(look('cinematic')).toMatch(/cinematic/);
    expect(look('watercolour')).toMatch(/watercolour style/);
  });

  it('fits the pacing to the duration', () => {
    const pacing = (duration: string) =>
      enhanceLocally({ ...base, duration }).improvements.find((i) => i.startsWith('Added pacing')) ?? '';
    expect(pacing('short')).toMatch(/brisk|punchy/);
    expect(pacing('long')).toMatch(/unhurried|slow build/);
    expect(pacing('4')).toEqual(pacing('short'));
    expect(pacing('20s')).toEqual(pacing('long'));
  });

  it('adds sound cues when the mood is energetic or the prompt mentions sound, and none to a sound the user named', () => {
    const sound = (input: Partial<EnhanceInput>) =>
      enhanceLocally({ ...base, ...input }).improvements.find((i) => i.startsWith('Added sound cues'));
    expect(sound({})).toBeUndefined();
    expect(sound({ mood: 'energetic' })).toMatch(/soundtrack|beat/);
    expect(sound({ userPrompt: 'A lighthouse with sound' })).toMatch(/ambient/);
    expect(sound({ userPrompt: 'A lighthouse keeper singing an old song', mood: 'energetic' })).toBeUndefined();
    expect(sound({ userPrompt: 'A lighthouse keeper telling a story, with voice' })).toBeUndefined();
    expect(sound({ userPrompt: 'A lighthouse with music and ambient sound', mood: 'energetic' })).toBeUndefined();
    expect(sound({ userPrompt: 'A silent lighthouse', mood: 'energetic' })).toBeUndefined();
  });

  it('derives confidence from how much it had to add: 95 with nothing missing, about 70 with everything', () => {
    const everything = enhanceLocally({ ...base, mood: 'energetic' });
    expect(everything.improvements).toHaveLength(6);
    expect(everything.confidence).toBe(70);
    const some = enhanceLocally({ ...base, userPrompt: 'Close-up of a lighthouse at golden hour, dolly-in' });
    expect(some.improvements).toHaveLength(2);
    expect(some.confidence).toBeGreaterThan(everything.confidence);
    expect(some.confidence).toBeLessThan(95);
    expect(Math.abs(some.confidence - 85)).toBeLessThanOrEqual(3);
  });
  describe("keeps every choice the user made (issue 34: 'a slow zoom in ... soft piano')", () => {
    const issuePrompt = 'A slow zoom in on a cat on a windowsill, soft piano';

    it('adds nothing that contradicts the example, whatever the dropdown mood', () => {
      for (const mood of ['energetic', 'calm']) {
        const result = enhanceLocally({ ...base, userPrompt: issuePrompt, mood });
        expect(result.enhancedPrompt.startsWith(issuePrompt)).toBe(true);
        const kinds = result.improvements.map((i) => i.split(':')[0]);
        expect(kinds).not.toContain('Added camera movement');
        expect(kinds).not.toContain('Added pacing');
        expect(kinds).not.toContain('Added sound cues');
        const added = result.enhancedPrompt.slice(issuePrompt.length).toLowerCase();
        expect(added).not.toMatch(
          /wide|establishing|lively|brisk|punchy|energ|dynamic|fast|quick|crisp|sound effects|soundtrack|beat|vivid|tracking|orbit|pan\b|crane|push-in|dolly/,
        );
      }
    });

    const fullKinds = [
      'Added shot type and framing',
      'Added camera movement',
      'Added lighting',
      'Added lens and style',
      'Added pacing',
      'Added sound cues',
    ];
    const cases: { kind: string; given: string[] }[] = [
      {
        kind: 'Added shot type and framing',
        given: [
          'A close-up of a cat',
          'A wide view of a cat',
          'A medium shot of a cat',
          'Aerial view of a cat',
          'Over-the-shoulder on a cat',
          'POV of a cat',
        ],
      },
      {
        kind: 'Added camera movement',
        given: [
          'Zoom in on a cat',
          'Zoom out from a cat',
          'Camera pans over a cat',
          'Slow tilt up to a cat',
          'Tracking a cat',
          'Orbit around a cat',
          'A handheld look at a cat',
          'A static camera on a cat',
          'A locked-off cat',
          'A dolly toward a cat',
        ],
      },
      {
        kind: 'Added pacing',
        given: [
          'A slow cat',
          'A cat moving fast',
          'A lively cat',
          'A gentle cat',
          'A cat in time-lapse',
          'A cat in slow motion',
        ],
      },
      {
        kind: 'Added sound cues',
        given: [
          'A cat, with music',
          'A cat and soft piano',
          'A cat, guitar playing',
          'A silent cat',
          'A cat, no sound',
          'A cat with ambient sound',
          'A cat, with a voice',
          'A cat with narration',
          'A cat with sound effects',
        ],
      },
    ];
    it.each(cases)('adds no $kind when the user gave one', ({ kind, given }) => {
      for (const userPrompt of given) {
        const kinds = kindsOf({ userPrompt, mood: 'energetic' });
        expect(kinds, userPrompt).not.toContain(kind);
        expect(kinds.length, userPrompt).toBeGreaterThan(0);
      }
      // Absent: one of that kind is added (sound with the audio-on mood).
      expect(kindsOf({ userPrompt: 'A cat', mood: 'energetic' })).toEqual(fullKinds);
    });

    const feelCases: { words: string; calm: boolean }[] = [
      { words: 'A calm cat on a windowsill', calm: true },
      { words: 'A serene cat on a windowsill', calm: true },
      { words: 'A peaceful cat, soft light', calm: true },
      { words: 'A melancholic cat on a windowsill', calm: true },
      { words: 'A tense, moody cat on a windowsill', calm: true },
    ];
    it.each(feelCases)('lets the words "$words" decide the feel over an energetic dropdown', ({ words }) => {
      const result = enhanceLocally({ ...base, userPrompt: words, mood: 'energetic' });
      const added = result.enhancedPrompt.slice(words.length).toLowerCase();
      expect(added).not.toMatch(
        /lively|brisk|punchy|energ|dynamic|fast|quick|crisp|vivid|driving|upbeat|rising energy|momentum/,
      );
      // Sound is still missing and the audio is on, so a calm one is added.
      expect(result.improvements.some((i) => i.startsWith('Added sound cues'))).toBe(true);
    });

    it('lets lively words make the additions lively even with the calm dropdown', () => {
      const result = enhanceLocally({ ...base, userPrompt: 'A joyful, energetic cat party', mood: 'calm' });
      const move = result.improvements.find((i) => i.startsWith('Added camera movement')) ?? '';
      expect(move).toMatch(/dynamic|fast|quick/);
    });

    it('adds a framing that fits a zoom in rather than a wide establishing shot', () => {
      const shot = kindsOf({ userPrompt: 'Zoom in on a cat' });
      expect(shot).toContain('Added shot type and framing');
      const text = enhanceLocally({ ...base, userPrompt: 'Zoom in on a cat' }).improvements[0] ?? '';
      expect(text).toMatch(/close-up/);
      expect(text).not.toMatch(/wide|establishing/);
    });
  });
});
