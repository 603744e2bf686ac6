import { DEFAULT_ENHANCE_CONFIDENCE, type PromptEnhancement } from '../../shared/ai';

/**
 * The enhancer used without a Gemini key. It keeps the user's text verbatim at the start and adds
 * only the ingredients a strong video prompt has and this one lacks, each named as an improvement
 * ("Added camera movement: slow dolly-in toward the subject"). Phrases are picked by a hash of the
 * prompt: different prompts get variety, the same request always gets the same answer.
 *
 * The user's choices win: a kind the user already gave (shot, camera move, pace, sound) gets
 * nothing added, and the feel of the additions comes from the user's own words ("slow", "soft",
 * "serene", "tense", "lively") before the dropdown mood, which the generator only sets from the
 * audio switch. So "a slow zoom in ... soft piano" never gains a wide establishing shot, lively
 * pacing or sound effects (docs/product-rules.md, AI assist).
 */
export interface EnhanceInput {
  userPrompt: string;
  style: string;
  duration: string;
  mood: string;
}

type Feel = 'energetic' | 'moody' | 'calm';

interface Ingredient {
  kind: string;
  /** Words that show the user already gave one of this kind. */
  present: RegExp;
  options: (input: EnhanceInput, context: Context) => readonly string[];
}

interface Context {
  feel: Feel;
  /** The feel the user's own words give, when they give one. */
  userFeel: Feel | null;
  /** 'in' for a user's zoom/push/dolly in, 'out' for a zoom out or pull back. */
  moveDirection: 'in' | 'out' | null;
}

const SHOTS: Record<Feel, string[]> = {
  energetic: [
    'wide establishing shot',
    'medium shot framed on the subject',
    'sweeping wide shot with the subject off-centre',
  ],
  moody: ['medium shot with the subject half in shadow', 'wide shot with the subject small in the frame'],
  calm: ['medium shot framed on the subject', 'soft wide shot with the subject off-centre'],
};
/** Framing that a user's own zoom in or out can travel through without contradicting it. */
const SHOTS_FOR_MOVE = {
  in: ['opening on a medium shot and ending in a close-up of the subject'],
  out: ['opening on a close-up of the subject and ending wide'],
};
const MOVES: Record<Feel, string[]> = {
  energetic: [
    'dynamic tracking shot following the action',
    'fast push-in with subtle handheld energy',
    'quick orbiting move around the subject',
  ],
  moody: ['slow creeping push-in', 'steady slow pan revealing the scene'],
  calm: ['slow dolly-in toward the subject', 'gentle crane move rising over the scene', 'slow lateral tracking shot'],
};
const LIGHTS: Record<Feel, string[]> = {
  energetic: ['vivid high-contrast light with bright highlights', 'punchy saturated light with crisp shadows'],
  moody: ['moody low-key lighting with gentle rim light', 'dramatic chiaroscuro lighting with deep shadows'],
  calm: ['warm golden-hour light with long soft shadows', 'soft diffused daylight', 'gentle natural window light'],
};
const LOOKS: Record<string, string[]> = {
  cinematic: [
    'shot on 35mm anamorphic lens, shallow depth of field, cinematic colour grade',
    'filmic 50mm lens, soft bokeh, rich cinematic colour grading',
  ],
  anime: [
    'hand-drawn anime style, clean line art, vivid cel shading',
    'anime look with painterly backgrounds and crisp outlines',
  ],
  documentary: [
    'documentary look, natural colours, handheld 24mm lens',
    'observational documentary framing, true-to-life colour',
  ],
  realistic: ['photorealistic detail, natural colour, 35mm lens', 'lifelike textures, true-to-life colour, 50mm lens'],
  vintage: ['vintage film look, warm faded colours, soft grain', 'retro 16mm film stock, gentle grain and halation'],
  noir: [
    'black-and-white film noir look, hard shadows, 40mm lens',
    'high-contrast monochrome noir style with deep blacks',
  ],
  animated: [
    'polished 3D animation style, soft global illumination',
    'stylised 3D animated look, rounded shapes, rich colour',
  ],
  fantasy: [
    'painterly fantasy look, luminous colours, 35mm lens',
    'epic fantasy style, atmospheric haze, wide-angle lens',
  ],
};
const STYLE_ALIASES: Record<string, string> = {
  photorealistic: 'realistic',
  retro: 'vintage',
  'film noir': 'noir',
  cartoon: 'animated',
  animation: 'animated',
  '3d': 'animated',
  pixar: 'animated',
};
type Length = 'short' | 'medium' | 'long';
const PACING: Record<Length, string[]> = {
  short: ['brisk pacing with one clear moment of action', 'a single punchy beat, quickly resolved'],
  medium: ['steady pacing with a clear beginning and end', 'measured pacing building to a gentle payoff'],
  long: ['unhurried pacing that lets the scene breathe and unfold', 'a slow build with room for detail'],
};
/** For a user whose words are calm: never brisk or lively, whatever the length. */
const SLOW_PACING: Record<Length, string[]> = {
  short: ['a single unhurried moment, gently resolved', 'one quiet beat that lingers'],
  medium: ['unhurried pacing with a gentle beginning and end', 'measured, lingering pacing'],
  long: PACING.long,
};
const ENERGETIC_PACING: Record<Length, string[]> = {
  short: PACING.short,
  medium: ['lively pacing building to a peak moment', 'quick rhythmic pacing with a clear payoff'],
  long: ['rising energy across several beats, building to a climax', 'momentum that keeps building to a big finish'],
};

const INGREDIENTS: Ingredient[] = [
  {
    kind: 'shot type and framing',
    present:
      /\b(extreme close|close[- ]?ups?|close shot|wide[- ]?(shot|angle|view|frame)|establishing|medium|long shot|full[- ]body|full shot|aerial|overhead|top[- ]down|bird'?s[- ]eye|drone|macro|pov|point of view|first[- ]person|over[- ]the[- ]shoulder|(low|high|dutch)[- ]angle|two[- ]shot|portrait shot|headshot|framed|framing|selfie)\b/i,
    options: (_input, { feel, moveDirection }) => (moveDirection ? SHOTS_FOR_MOVE[moveDirection] : SHOTS[feel]),
  },
  {
    kind: 'camera movement',
    present:
      /\b(pan(ning|ned)?|pans (across|over|left|right|to|up|down)|whip[- ]pan|zoom(s|ing|ed)?|dolly|tracking|crane|drone|orbit(s|ing)?|tilt(s|ing)?|hand-?held|push[- ]?in|pull[- ]?(back|out)|static (camera|shot)|locked[- ]off|steadicam|gimbal|fpv|fly(ing)?[- ]?(over|through)|flyover|camera (moves|follows|glides|rises|descends|circles)|rack focus|arc shot|slider|static|still camera|fixed camera|stationary camera)\b/i,
    options: (_input, { feel }) => MOVES[feel],
  },
  {
    kind: 'lighting',
    present:
      /\b(lighting|lit|sun(light|lit|set|rise|beams?|ny)|golden hour|blue hour|neon|moon ?light|candle ?light|lamp ?light|fire ?light|back-?lit|back-?light|rim light|spotlight|silhouett\w*|shadows?|glow(s|ing)?|dusk|dawn|twilight|night|overcast|daylight|chiaroscuro|(low|high)[- ]key|fluorescent|lanterns?|(soft|warm|cold|cool|harsh|dim|bright|natural|studio|dramatic|diffused|moody|ambient|morning|evening|afternoon|window) light)\b/i,
    options: (_input, { feel }) => LIGHTS[feel],
  },
  {
    kind: 'lens and style',
    present:
      /(\b\d{2,3}\s?mm\b|\b(lens|anamorphic|bokeh|depth of field|film grain|grainy|anime|cartoon|animated|animation|photoreal\w*|hyper-?real\w*|realistic|documentary|vintage|retro|cinematic|film look|watercolou?r|oil painting|3d render|cgi|pixar|claymation|stop[- ]motion|noir|black[- ]and[- ]white|monochrome|technicolor|super ?8|vhs|polaroid|colou?r grad\w*|tilt-shift|fisheye|telephoto)\b)/i,
    options: (input) => looksFor(input.style),
  },
  {
    kind: 'pacing',
    present:
      /\b(slow(ly|er)?|fast(er)?|quick(ly)?|rapid(ly)?|brisk(ly)?|lively|gentle|gently|slow[- ]?motion|slo[- ]?mo|time[- ]?lapse|hyperlapse|fast[- ]paced|real[- ]time|pacing|paced|quick cuts|lingering|speed ramp|freeze[- ]frame|unhurried|leisurely|single take|one take|montage)\b/i,
    options: (input, { feel, userFeel }) =>
      (userFeel === 'calm' ? SLOW_PACING : feel === 'energetic' ? ENERGETIC_PACING : PACING)[lengthOf(input.duration)],
  },
];

/** A sound the user named: music, an instrument, ambience, effects, a voice, or silence. */
const GIVES_SOUND =
  /\b(music\w*|soundtrack|songs?|melod\w*|score|beats?|singing|sings|choir|orchestra\w*|band|guitar|piano|violin|cello|drums?|ambien(t|ce)|sound effects|sfx|foley|soundscape|field recording|voices?|voice-?over|dialogue|speak\w*|talk\w*|narrat\w*|says|whisper\w*|silent|silence|no sound|without sound|muted?)\b/i;
/** Sound asked for without saying which: the enhancer may name one. */
const MENTIONS_SOUND = /\b(sounds?|audio|noise|hear\w*|loud)\b/i;
/** A user's move toward or away from the subject, so any added framing travels the same way. */
const MOVES_IN = /\b(zoom(s|ing|ed)? in(to)?|push(es|ing)?[- ]?in|dolly(ing)?[- ]in|dolly toward|move(s)? closer)\b/i;
const MOVES_OUT = /\b(zoom(s|ing|ed)? out|pull(s|ing)?[- ]?(back|out)|dolly(ing)?[- ]out)\b/i;

/** The user's own feel words; they decide over the dropdown mood. */
const FEEL_WORDS: Record<Feel, RegExp> = {
  calm: /\b(calm\w*|serene|peaceful|quiet\w*|tranquil|relax\w*|dreamy|gentle|gently|soft(ly)?|slow(ly)?|slow[- ]motion|lullaby|cos?zy|cosy|lazy|soothing|tender)\b/gi,
  moody:
    /\b(tense|tension|moody|dark|gloomy|melanchol\w*|sad|sorrow\w*|eerie|ominous|mysterious|suspense\w*|haunting|lonely|somb(er|re)|brooding|grim|scary|creepy)\b/gi,
  energetic:
    /\b(fast|quick\w*|rapid\w*|lively|energetic|upbeat|exciting|excited|frantic|joy(ful|ous)?|playful|action|explosive|racing|chase|dynamic|vibrant|bouncy|cheerful|happy|party|dancing|hectic)\b/gi,
};

/** Improves a description locally; see the file comment. */
export function enhanceLocally(input: EnhanceInput): PromptEnhancement {
  const original = input.userPrompt.trim();
  const userFeel = userFeelOf(original);
  const feel = userFeel ?? feelOf(input.mood);
  const moveDirection = MOVES_IN.test(original) ? 'in' : MOVES_OUT.test(original) ? 'out' : null;
  const context: Context = { feel, userFeel, moveDirection };
  const additions: { kind: string; text: string }[] = [];
  for (const ingredient of INGREDIENTS) {
    if (ingredient.present.test(original)) continue;
    const text = pick(ingredient.options(input, context), `${original}|${ingredient.kind}`);
    if (text) additions.push({ kind: ingredient.kind, text });
  }
  const sound = soundCueFor(original, feel, feelOf(input.mood) === 'energetic');
  if (sound) additions.push({ kind: 'sound cues', text: sound });

  const possible = INGREDIENTS.length + 1;
  // How much of the result is the user's own: 95 when nothing was missing, 70 when all six kinds
  // were added, about 4 less per addition (docs/product-rules.md, AI assist).
  const confidence = Math.round(DEFAULT_ENHANCE_CONFIDENCE + 10 - (additions.length * 25) / possible);
  return {
    enhancedPrompt: joinAdditions(
      original,
      additions.map((a) => a.text),
    ),
    improvements: additions.map((a) => `Added ${a.kind}: ${a.text}`),
    confidence,
  };
}

/**
 * A sound cue when the user named none: with the audio on (the energetic dropdown mood) or a bare
 * "with sound", matching the feel. Any sound the user named, silence included, is kept as it is.
 */
function soundCueFor(prompt: string, feel: Feel, audioOn: boolean): string | null {
  if (GIVES_SOUND.test(prompt)) return null;
  if (!audioOn && !MENTIONS_SOUND.test(prompt)) return null;
  if (feel === 'energetic')
    return (
      pick(['energetic soundtrack with punchy sound effects', 'driving beat with crisp ambient sound'], prompt) ?? null
    );
  if (feel === 'moody') return 'a low, brooding ambient soundscape';
  return 'a gentle ambient soundscape';
}

/** The feel the user's words give most often, or null when they give none (a tie goes calm, then moody). */
function userFeelOf(prompt: string): Feel | null {
  let best: Feel | null = null;
  let bestCount = 0;
  for (const feel of ['calm', 'moody', 'energetic'] as const) {
    const count = prompt.match(FEEL_WORDS[feel])?.length ?? 0;
    if (count > bestCount) {
      best = feel;
      bestCount = count;
    }
  }
  return best;
}

function feelOf(mood: string): Feel {
  const m = mood.toLowerCase();
  if (/\b(energetic|exciting|upbeat|intense|action|epic|fun|playful|happy)\b/.test(m)) return 'energetic';
  if (/\b(dark|mysterious|moody|dramatic|tense|suspenseful|scary|horror|sad|melancholic|melancholy)\b/.test(m))
    return 'moody';
  return 'calm';
}

/** 'short'/'medium'/'long', or a number of seconds ('8', '10s'). */
function lengthOf(duration: string): Length {
  const d = duration.trim().toLowerCase();
  if (d === 'short' || d === 'medium' || d === 'long') return d;
  const seconds = Number.parseFloat(d);
  if (!Number.isFinite(seconds)) return 'medium';
  return seconds <= 5 ? 'short' : seconds <= 10 ? 'medium' : 'long';
}

/** The look for a style: a known one, or a generic look naming an unknown style (cinematic when blank). */
function looksFor(style: string): readonly string[] {
  const key = style.trim().toLowerCase();
  const known = LOOKS[STYLE_ALIASES[key] ?? key];
  if (known) return known;
  const name = key.replace(/[^a-z0-9 -]/g, '').trim();
  if (!name) return LOOKS.cinematic ?? [];
  return [`${name} style throughout, consistent colour palette, 35mm lens`];
}

/** The user's text verbatim, then the additions as one sentence. */
function joinAdditions(original: string, additions: string[]): string {
  if (additions.length === 0) return original;
  const sentence = additions.join(', ');
  if (/[.!?…]$/.test(original)) return `${original} ${capitalise(sentence)}.`;
  if (/[,;:–-]$/.test(original)) return `${original} ${sentence}.`;
  return `${original}. ${capitalise(sentence)}.`;
}

function pick(options: readonly string[], key: string): string | undefined {
  return options[hashOf(key.toLowerCase()) % Math.max(1, options.length)];
}

/** FNV-1a: small and stable across runs and machines. */
function hashOf(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
