import { describe, expect, it } from 'vitest';
import { aiUseOf } from './ai-use';
import { expiredWhen, isExpiredVideo } from './video-display';

describe('aiUseOf (decision 012)', () => {
  const produced = [
    { source: 'A fox', enhancedPrompt: 'A fox in golden light.' },
    { source: 'Suggested: a harbour at dusk', enhancedPrompt: 'A harbour at dusk, slow pan.' },
    { source: 'A harbour at dusk, slow pan.', enhancedPrompt: 'A harbour at dusk, slow pan, gulls.' },
  ];
  const suggestion = 'Suggested: a harbour at dusk';
  it.each([
    ['typed by hand', 'A cat', false, false],
    ['an enhanced prompt', 'A fox in golden light.', true, false],
    ['the suggestion itself', suggestion, false, true],
    ['an enhanced suggestion', 'A harbour at dusk, slow pan.', true, true],
    ['a suggestion enhanced twice', ' A harbour at dusk, slow pan, gulls. ', true, true],
    ['nothing', '   ', false, false],
  ])('%s', (_name, description, enhancement, analysis) => {
    expect(aiUseOf(description, produced, suggestion)).toEqual({
      usedPromptEnhancement: enhancement,
      usedImageAnalysis: analysis,
    });
  });
  it('knows no analysis without a suggestion', () => {
    expect(aiUseOf('A harbour at dusk, slow pan.', produced, null)).toEqual({
      usedPromptEnhancement: true,
      usedImageAnalysis: false,
    });
  });
});

describe('expired videos', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  it('are completed videos past their expiry only', () => {
    expect(isExpiredVideo({ status: 'completed', expiresAt: '2026-11-23T11:00:00Z' }, now)).toBe(true);
    expect(isExpiredVideo({ status: 'completed', expiresAt: '2026-11-23T13:00:00Z' }, now)).toBe(false);
    expect(isExpiredVideo({ status: 'failed', expiresAt: '2026-11-23T11:00:00Z' }, now)).toBe(false);
    expect(isExpiredVideo({ status: 'completed', expiresAt: null }, now)).toBe(false);
  });
  it('say when', () => {
    expect(expiredWhen('2026-11-23T11:59:50Z', now)).toBe('Expired 1m ago');
    expect(expiredWhen('2026-11-23T11:20:00Z', now)).toBe('Expired 40m ago');
    expect(expiredWhen('2026-11-23T06:00:00Z', now)).toBe('Expired 6h ago');
    expect(expiredWhen('2026-11-20T06:00:00Z', now)).toMatch(/^Expired Nov 20, 2026$/);
  });
});
