import type { ModerationCategory, ModerationDecision } from '../../shared/moderation';
import { plainText, skeleton } from './normalise';

/** One category's lists: terms that block, terms that ask for review, phrases that are never a match. */
export interface CategoryTerms {
  block: string[];
  review?: string[];
  allow?: string[];
}

/** The local moderator's lists; `minors.context` names a minor (with a sexual term, the text is refused). */
export type TermLists = {
  minors: CategoryTerms & { context: string[] };
  sexual: CategoryTerms;
  violence: CategoryTerms;
};

/** What one moderator found in one category: how sure (0 to 1), what it decides, and why (for the log). */
export interface CategoryFinding {
  category: ModerationCategory;
  score: number;
  decision: ModerationDecision;
  /** The list entry that matched (operators' logs and the review list; never shown to the user). */
  matched: string;
}

type Matcher = { entry: string; test: (text: { plain: string; words: string[]; joined: string }) => boolean };

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A list entry as a test on a text's plain form, its skeleton words and the skeleton joined. */
function matcher(entry: string): Matcher {
  const pattern = /^\/(.+)\/$/.exec(entry);
  if (pattern) {
    const regex = new RegExp(pattern[1] ?? '', 'u');
    return { entry, test: (text) => regex.test(text.plain) || regex.test(text.joined) };
  }
  const prefix = entry.endsWith('*');
  const words = skeleton(prefix ? entry.slice(0, -1) : entry).split(' ');
  const last = words.length - 1;
  const parts = words.map((word, index) =>
    index === last ? (prefix ? `${escape(word)}[a-z]*` : `${escape(word)}(?:e?s)?`) : escape(word),
  );
  const regex = new RegExp(`(?:^| )${parts.join(' ')}(?= |$)`);
  return { entry, test: (text) => regex.test(text.joined) };
}

interface CompiledCategory {
  block: Matcher[];
  review: Matcher[];
  allow: RegExp[];
}

function compile(terms: CategoryTerms): CompiledCategory {
  return {
    block: terms.block.map(matcher),
    review: (terms.review ?? []).map(matcher),
    // An allowed phrase is cut out of the skeleton (as whole words) before the lists are tried.
    allow: (terms.allow ?? []).map((phrase) => new RegExp(`(?:^| )${escape(skeleton(phrase))}(?= |$)`, 'g')),
  };
}

/** What an operator set per category: what a match on its block list does (minors: always block). */
export type CategoryActions = Record<'sexual' | 'violence', ModerationDecision>;

/**
 * The offline prompt moderator: the operator's lists (or the defaults) matched on the text with its
 * disguises taken off. A block-list match scores 1, a review-list match 0.5.
 */
export function createTermModerator(lists: TermLists, actions: CategoryActions) {
  const compiled = {
    minors: { ...compile(lists.minors), context: lists.minors.context.map(matcher) },
    sexual: compile(lists.sexual),
    violence: compile(lists.violence),
  };
  const formsOf = (text: string, category: CompiledCategory) => {
    let joined = skeleton(text);
    for (const allowed of category.allow) joined = joined.replace(allowed, ' ');
    joined = joined.replace(/ {2,}/g, ' ').trim();
    return { plain: plainText(text), words: joined.split(' '), joined };
  };
  const first = (matchers: Matcher[], form: ReturnType<typeof formsOf>) => matchers.find((m) => m.test(form));

  /** An adult category's finding: a block-list match does what the operator set, a review-list match asks for review. */
  const adultFinding = (category: 'sexual' | 'violence', text: string): CategoryFinding | null => {
    const form = formsOf(text, compiled[category]);
    const blocked = first(compiled[category].block, form);
    if (blocked) return { category, score: 1, decision: actions[category], matched: blocked.entry };
    const doubtful = first(compiled[category].review, form);
    return doubtful ? { category, score: 0.5, decision: review(actions[category]), matched: doubtful.entry } : null;
  };

  return {
    name: 'terms',
    screen(text: string): CategoryFinding[] {
      const sexual = adultFinding('sexual', text);
      const violence = adultFinding('violence', text);
      const minorsForm = formsOf(text, compiled.minors);
      const minorsBlock = first(compiled.minors.block, minorsForm);
      const minor = first(compiled.minors.context, minorsForm);
      // Minors: a listed term, or anything sexual beside words naming a minor; always refused.
      const minors: CategoryFinding | null = minorsBlock
        ? { category: 'minors', score: 1, decision: 'block', matched: minorsBlock.entry }
        : minor && sexual
          ? { category: 'minors', score: 1, decision: 'block', matched: `${minor.entry} + ${sexual.matched}` }
          : null;
      return [minors, sexual, violence].filter((finding): finding is CategoryFinding => finding !== null);
    },
  };
}

/** An uncertain match asks for review, unless the operator allows the category outright. */
const review = (action: ModerationDecision): ModerationDecision => (action === 'allow' ? 'allow' : 'review');

export type TermModerator = ReturnType<typeof createTermModerator>;
