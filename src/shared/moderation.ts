/**
 * The content policy's categories and what each screening step answers (issue 43). Browser-safe:
 * the generator words a refusal from the same sentences the API sends.
 */
export const MODERATION_CATEGORIES = ['minors', 'sexual', 'violence'] as const;
export type ModerationCategory = (typeof MODERATION_CATEGORIES)[number];

/** What a screening decides: make it, make it but hold it for an administrator, or refuse it. */
export const MODERATION_DECISIONS = ['allow', 'review', 'block'] as const;
export type ModerationDecision = (typeof MODERATION_DECISIONS)[number];

/** The API's error code for a refusal under the content policy (422). */
export const CONTENT_POLICY_CODE = 'content_policy';

/** The rule a refusal names, per category (never the score). */
export const POLICY_RULES: Record<ModerationCategory, string> = {
  minors: 'Reelsmith never makes sexual content involving minors.',
  sexual: 'This server does not make sexual or explicit content.',
  violence: 'This server does not make graphic violence or gore.',
};

/** The sentence a refused description gets: what was refused, and the rule. */
export const promptRefusal = (category: ModerationCategory) =>
  `This description can't be used. ${POLICY_RULES[category]} Change the description and try again.`;

/** The decision that wins when several apply: the strictest. */
export function strictest(decisions: readonly ModerationDecision[]): ModerationDecision {
  if (decisions.includes('block')) return 'block';
  return decisions.includes('review') ? 'review' : 'allow';
}
