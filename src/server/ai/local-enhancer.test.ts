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

  it('adds sound cues when the mood is energetic or the prompt mentions sound, complementing what is there', () => {
    const sound = (input: Partial<EnhanceInput>) =>
      enhanceLocally({ ...base, ...input }).improvements.find((i) => i.startsWith('Added sound cues'));
    expect(sound({})).toBeUndefined();
    expect(sound({ mood: 'energetic' })).toMatch(/soundtrack|beat/);
    expect(sound({ userPrompt: 'A lighthouse keeper singing an old song' })).toMatch(/ambience/);
    expect(sound({ userPrompt: 'A lighthouse keeper singing an old song' })).not.toMatch(/soundtrack|beat/);
    expect(sound({ userPrompt: 'A lighthouse keeper telling a story, with voice' })).toMatch(/voice/);
    expect(sound({ userPrompt: 'A lighthouse with music and ambient sound', mood: 'energetic' })).toBeUndefined();
    expect(sound({ userPrompt: 'A silent lighthouse', mood: 'energetic' })).toBeUndefined();
  });

  it('derives confidence from how much it had to add: 95 with nothing missing, about 70 with everything', () => {
    const everything = enhanceLocally({ ...base, mood: 'energetic' });
    expect(everything.improvements).toHaveLength(6);
    expect(everything.confidence).toBe(70);
    const some = enhanceLocally({ ...base, userPrompt: 'Close-up of a lighthouse at golden hour, slow dolly-in' });
    expect(some.improvements).toHaveLength(2);
    expect(some.confidence).toBeGreaterThan(everything.confidence);
    expect(some.confidence).toBeLessThan(95);
    expect(Math.abs(some.confidence - 85)).toBeLessThanOrEqual(3);
  });
});
