import { describe, expect, it } from 'vitest';
import { strictest } from '../../shared/moderation';
import { DEFAULT_TERMS } from './default-terms';
import { createTermModerator } from './term-moderator';

// The offline prompt moderator with its default lists (issue 43): disguised phrases in each category
// are refused, and ordinary cinematic descriptions pass untouched.

const moderator = createTermModerator(DEFAULT_TERMS, { sexual: 'block', violence: 'block' });
const decide = (text: string) => strictest(moderator.screen(text).map((finding) => finding.decision));
const categories = (text: string) => moderator.screen(text).map((finding) => finding.category);

/** Ordinary descriptions, several with a word that looks like trouble out of context: none may be held or refused. */
const BENIGN = [
  'A shot of a gun-metal grey sky over the harbour',
  'Visible to the naked eye, a comet crosses the night sky',
  'A killer whale breaching at dawn, slow motion',
  'Blood orange sunset over the bay, warm film grain',
  'A hiker in a Gore-Tex jacket walking through the rain',
  'Al Gore gives a speech on a windy stage',
  'A comic strip comes to life, panel by panel',
  'A chicken breast sizzling in a cast iron pan',
  'A fashion shoot in a nude colour palette, soft light',
  'Shoot a music video on a neon-lit rooftop at night',
  'A battle scene with knights on horseback, dust and banners',
  'A fencing duel in slow motion, sparks on the blades',
  'A cowboy draws his revolver at high noon, wide shot',
  'Kids playing football in the park on a summer evening',
  'A baby laughing in a bubble bath, close up',
  'A teenager skateboarding down an empty street',
  'A bloody mary cocktail on a bar counter, macro shot',
  'A dragon breathing fire over a burning castle',
  'A zombie horde shambling through a foggy town',
  'Rolling hills of the Essex countryside in spring',
  "A therapist's office with plants and warm lamps",
  'Assassin chasing a courier across Venetian rooftops',
  'The execution of a perfect golf swing, 240 fps',
  'A pianist plays a sonata in a minor key, candlelight',
  'Explosions light up a desert convoy in an action movie',
  'A sniper lies hidden in tall grass, tense close up',
  'Two boxers trade punches under stadium lights',
  'A samurai sheathes his katana after a rainy duel',
  'Fireworks bursting over Sydney harbour, 4K',
  'A surgeon scrubs in before an operation, documentary style',
  'A red fox in a snowy forest, golden hour',
  'An astronaut floats past the space station window',
  'A child blows out candles on a birthday cake',
  'A mother holds her newborn infant in a sunlit room',
  'Schoolchildren run through a field of sunflowers',
  'Pirates fire cannons at a ship in a storm',
  'A detective examines clues at a crime scene, film noir',
  'Heavy rain on a car window, city lights blurred',
  'A knife slices through a ripe tomato, macro',
  'A hunter and his dog walk through autumn woods',
  'A bull charges a matador in a dusty arena',
  'A volcano erupts at night, lava flowing to the sea',
  'Wolves hunt a deer across a frozen lake',
  'A soldier salutes at a memorial at sunrise',
  'Couple dancing the tango in a Buenos Aires street',
  'A bride and groom kiss under falling petals',
  'A lifeguard runs along the beach in a red swimsuit',
  'Gymnast on the balance beam, arena lights',
  'A model walks the runway in a sequined gown',
  'Storm clouds gather over wheat fields, timelapse',
  'A haunted house with flickering lights, horror trailer',
  'Shot on 35mm: a lonely diner at 3am',
  'Thunder rolls over a medieval village, moody',
  'A magician saws his assistant in half, stage show',
];

describe('the local prompt moderator', () => {
  it.each(BENIGN)('passes an ordinary description: %s', (text) => {
    expect(moderator.screen(text)).toEqual([]);
  });

  it('has at least 50 ordinary descriptions to pass', () => {
    expect(BENIGN.length).toBeGreaterThanOrEqual(50);
  });

  /** The word that matters, disguised the ways people disguise it. */
  const disguises = (word: string) => ({
    plain: word,
    spaced: word.split('').join(' '),
    dotted: word.split('').join('.'),
    leet: word.replace(/o/g, '0').replace(/e/g, '3').replace(/a/g, '4').replace(/i/g, '1').replace(/s/g, '$'),
    zeroWidth: word.split('').join('\u200b'),
    cyrillic: word.replace(/o/g, 'о').replace(/a/g, 'а').replace(/e/g, 'е').replace(/p/g, 'р').replace(/c/g, 'с'),
    accented: word.toUpperCase().replace(/E/g, 'É').replace(/A/g, 'À'),
    fullWidth: word.replace(/[a-z]/g, (letter) => String.fromCharCode(letter.charCodeAt(0) + 0xfee0)),
  });

  it.each([
    ['sexual', 'a woman posing', 'naked', 'on a bed'],
    ['sexual', 'a couple in a', 'porn', 'scene'],
    ['violence', 'a soldier being', 'decapitated', 'in battle'],
    ['violence', 'a close up full of', 'gore', 'and smoke'],
    ['minors', 'a', 'jailbait', 'photo shoot'],
  ] as const)('refuses %s content however it is disguised: %s ... %s', (category, before, word, after) => {
    const forms = Object.entries(disguises(word));
    expect(new Set(forms.map(([, form]) => form)).size).toBe(forms.length);
    for (const [how, form] of forms) {
      const text = `${before} ${form} ${after}`;
      expect(categories(text), `${how}: ${text}`).toContain(category);
      expect(decide(text), `${how}: ${text}`).toBe('block');
    }
    // Without the word, the same sentence passes.
    expect(moderator.screen(`${before} ${after}`)).toEqual([]);
  });

  it('refuses anything sexual that names a minor as the minors category, whatever the operator set', () => {
    const lenient = createTermModerator(DEFAULT_TERMS, { sexual: 'allow', violence: 'allow' });
    for (const text of [
      'a 15 year old in lingerie',
      'a young girl, nude',
      'sexy schoolgirl striptease',
      'teen erotic scene',
    ]) {
      const findings = lenient.screen(text);
      expect(findings.find((finding) => finding.category === 'minors')?.decision, text).toBe('block');
    }
    // The operator's setting decides the adult categories.
    expect(strictest(lenient.screen('a naked man on a beach').map((f) => f.decision))).toBe('allow');
    expect(lenient.screen('a naked man on a beach').map((f) => f.decision)).toEqual(['allow']);
  });

  it('holds an uncertain description for review rather than refusing it', () => {
    expect(decide('a woman in lingerie by the window')).toBe('review');
    expect(decide('the aftermath of a massacre in a village')).toBe('review');
    const reviewing = createTermModerator(DEFAULT_TERMS, { sexual: 'review', violence: 'block' });
    expect(strictest(reviewing.screen('a naked man on a beach').map((f) => f.decision))).toBe('review');
  });

  it('takes operator lists: a term of theirs blocks, and a regular expression on the plain text', () => {
    const custom = createTermModerator(
      { ...DEFAULT_TERMS, violence: { block: ['chainsaw massacre', '/\\bkill (him|her|them)\\b/'], review: [] } },
      { sexual: 'block', violence: 'block' },
    );
    expect(custom.screen('a ch4in$aw m4ssacre')).toEqual([
      { category: 'violence', score: 1, decision: 'block', matched: 'chainsaw massacre' },
    ]);
    expect(custom.screen('kill them all')[0]?.matched).toBe('/\\bkill (him|her|them)\\b/');
    expect(custom.screen('a close up full of gore')).toEqual([]);
  });
});
