import { DEFAULT_ENHANCE_CONFIDENCE, type PromptEnhancement } from '../../shared/ai';

/**
 * The enhancer used without a Gemini key. It keeps the user's text as written and adds only the
 * ingredients a strong video prompt has and this one lacks, each named as an improvement.
 * Deterministic: the same request always gives the same answer.
 */
interface Ingredient {
  kind: string;
  /** Words that show the user already said this. */
  present: RegExp;
  options: (request: EnhanceInput) => string[];
}

export interface EnhanceInput {
  userPrompt: string;
  style: string;
  duration: string;
  mood: string;
}

const STYLE_LOOKS: Record<string, string[]> = {
  cinematic: ['shot on 35mm anamorphic lens, shallow depth of field, cinematic colour grade', 'filmic 50mm lens, soft bokeh, rich cinematic colour grading'],
  anime: ['hand-drawn anime style, clean line art, vivid cel shading', 'Studio-style anime look, painterly backgrounds, crisp outlines'],
  documentary: ['documentary look, natural colours, handheld 24mm lens', 'observational documentary framing, true-to-life colour'],
  realistic: ['photorealistic detail, natural colour, 35mm lens', 'lifelike textures, true-to-life colour, 50mm lens'],
  vintage: ['vintage film look, warm faded colours, soft grain', 'retro 16mm film stock, gentle grain and halation'],
};

const INGREDIENTS: Ingredient[] = [
  {
    kind: 'shot type and framing',
    present: /\b(close[- ]?up|wide shot|wide angle|establishing|medium shot|long shot|aerial|overhead|bird'?s[- ]eye|macro|portrait shot|full shot|extreme)\b/i,
    options: () => ['wide establishing shot', 'medium shot framed on the subject', 'sweeping wide shot with the subject off-centre'],
  },
  {
    kind: 'camera movement',
    present: /\b(pan(s|ning)?|zoom(s|ing)?|dolly|tracking|crane|drone|orbit(s|ing)?|tilt(s|ing)?|handheld|push[- ]in|pull[- ]back|static camera|steadicam|fly(ing)? over)\b/i,
    options: () => ['slow dolly-in toward the subject', 'smooth tracking shot following the action', 'gentle crane move rising over the scene'],
  },
  {
    kind: 'lighting',
    present: /\b(light(ing)?|lit|sun(set|rise|light|lit)?|golden hour|blue hour|neon|moonlight|shadow(s)?|glow(ing)?|backlit|candle(light)?|dusk|dawn|night)\b/i,
    options: () => ['warm golden-hour light with long soft shadows', 'soft diffused daylight', 'moody low-key lighting with gentle rim light'],
  },
  {
    kind: 'lens and style',
    present: /\b(\d{2,3}\s?mm|lens|anamorphic|bokeh|depth of field|film grain|anime|cartoon|photoreal(istic)?|documentary|vintage|cinematic|watercolou?r|3d render|pixar)\b/i,
    options: (request) => STYLE_LOOKS[request.style.toLowerCase()] ?? STYLE_LOOKS.cinematic ?? [],
  },
  {
    kind: 'pacing',
    present: /\b(slow[- ]motion|time[- ]?lapse|fast[- ]paced|real[- ]time|hyperlapse|pacing|quick cuts|lingering)\b/i,
    options: (request) => {
      const duration = request.duration.toLowerCase();
      if (duration === 'short') return ['brisk pacing with one clear moment of action', 'a single punchy beat, quickly resolved'];
      if (duration === 'long') return ['unhurried pacing that lets the scene breathe and unfold', 'a slow build with room for detail'];
      return ['steady pacing with a clear beginning and end', 'measured pacing building to a gentle payoff'];
    },
  },
];

const SOUND_PRESENT = /\b(sound|music|soundtrack|voice|singing|audio|song|ambien(t|ce)|noise|silence)\b/i;
const SOUND_CUES = ['with an energetic soundtrack and punchy sound effects', 'with a driving beat and crisp ambient sound'];

/** A small stable hash, so different prompts get different phrasings but the same prompt the same. */
function hashOf(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

export function enhanceLocally(request: EnhanceInput): PromptEnhancement {
  const original = request.userPrompt.trim();
  const seed = hashOf(original.toLowerCase());
  const additions: string[] = [];
  const improvements: string[] = [];
  INGREDIENTS.forEach((ingredient, index) => {
    if (ingredient.present.test(original)) return;
    const options = ingredient.options(request);
    const choice = options[(seed + index) % options.length];
    if (!choice) return;
    additions.push(choice);
    improvements.push(`Added ${ingredient.kind}: ${choice}`);
  });
  const wantsSound = request.mood.toLowerCase() === 'energetic' || SOUND_PRESENT.test(original);
  if (wantsSound && !/\b(soundtrack|sound effects|beat)\b/i.test(original)) {
    const cue = SOUND_CUES[seed % SOUND_CUES.length] ?? '';
    additions.push(cue);
    improvements.push(`Added sound cues: ${cue}`);
  }
  const base = original.replace(/[.!\s]+$/, '');
  const enhancedPrompt = additions.length > 0 ? `${base}. ${capitalise(additions.join(', '))}.` : original;
  // Fewer additions mean the prompt was already strong: more confidence in the result.
  const possible = INGREDIENTS.length + 1;
  const confidence = additions.length === 0 ? 95 : Math.round(95 - (additions.length / possible) * 25);
  return { enhancedPrompt, improvements, confidence: Number.isFinite(confidence) ? confidence : DEFAULT_ENHANCE_CONFIDENCE };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
