/**
 * Text as the prompt moderator reads it, with the usual disguises taken off: case, accents,
 * zero-width and invisible characters, letters that look like Latin ones (Cyrillic, Greek,
 * full-width), digits and symbols for letters, and words spelt out letter by letter.
 *
 * Both the text and every listed term go through `skeleton`, so a term matches however it was
 * disguised: `l`, `1`, `|` and `!` all become `i` (as `I` and `l` look alike), `0` becomes `o`, and so on.
 */

/**
 * Invisible characters people put inside words: zero-width, joiners, soft hyphen, word joiner, BOM
 * (variation selectors and the combining grapheme joiner are marks, taken off with the accents).
 */
const INVISIBLE = /[\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0]/gu;

/** Letters from other scripts that look like a Latin letter (Unicode's confusables, the common ones). */
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ӏ: 'i',
  ɡ: 'g',
  ո: 'n',
  ս: 'u',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  // Latin look-alikes
  ı: 'i',
  ł: 'i',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
};

/** Digits written for letters (leetspeak), and letters that look alike, folded to one. */
const FOLDS: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '9': 'g',
  l: 'i',
};

/** Symbols written for letters: read as letters only inside a word (`k!ll`, `$ex`), not as punctuation. */
const SYMBOLS: Record<string, string> = { '@': 'a', $: 's', '!': 'i', '|': 'i', '+': 't', '€': 'e' };

/** One character as the moderator reads it: lower case, the look-alike's Latin letter, folded. */
function foldCharacter(character: string): string {
  const lower = character.toLowerCase();
  const latin = LOOK_ALIKES[lower] ?? lower;
  return FOLDS[latin] ?? latin;
}

/** The text in lower case, without accents or invisible characters, and with look-alikes as Latin letters. */
export function plainText(text: string): string {
  let out = '';
  for (const character of stripped(text)) {
    const lower = character.toLowerCase();
    out += LOOK_ALIKES[lower] ?? lower;
  }
  return out;
}

function stripped(text: string): string {
  return text
    .normalize('NFKD') // full-width and styled letters to plain ones, accents apart
    .replace(/\p{M}/gu, '') // the accents
    .replace(INVISIBLE, '');
}

/**
 * The skeleton of a text: words of folded letters separated by single spaces. A run of three or more
 * single letters (`s e x`, `n.u.d.e`, `g-o-r-e`) is joined into one word.
 */
export function skeleton(text: string): string {
  const characters = [...stripped(text)];
  let folded = '';
  characters.forEach((character, index) => {
    const symbol = SYMBOLS[character];
    // A symbol followed by a letter or digit stands for a letter; anywhere else it is punctuation.
    if (symbol) folded += /[\p{L}\p{N}]/u.test(characters[index + 1] ?? '') ? symbol : ' ';
    else folded += foldCharacter(character);
  });
  const words = folded
    .replace(/[^a-z]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  // Spelt out: three or more one-letter words in a row become one word.
  const joined: string[] = [];
  let run: string[] = [];
  const flush = () => {
    // "a" and "i" are words of their own: "a p o r n" is "a porn".
    const lead = run.length >= 4 && (run[0] === 'a' || run[0] === 'i') ? (run.shift() as string) : null;
    if (lead) joined.push(lead);
    if (run.length >= 3) joined.push(run.join(''));
    else joined.push(...run);
    run = [];
  };
  for (const word of words) {
    if (word.length === 1) run.push(word);
    else {
      flush();
      joined.push(word);
    }
  }
  flush();
  return joined.join(' ');
}
