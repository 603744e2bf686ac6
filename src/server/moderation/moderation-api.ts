import { z } from 'zod';
import type { ModerationDecision } from '../../shared/moderation';
import type { CategoryActions, CategoryFinding } from './term-moderator';

/**
 * A moderation service the operator names (MODERATION_API_URL), spoken to as OpenAI's Moderations
 * API is documented (https://platform.openai.com/docs/api-reference/moderations/create): POST
 * {base}/moderations with `{ model, input }` (input an array of strings), `Authorization: Bearer`;
 * the answer's `results[]` (one per input) carry `category_scores` from 0 to 1 under OpenAI's
 * category names. Other services that offer the same route (gateways, self-hosted moderation
 * servers) answer the same shape.
 */
export interface ModerationApiConfig {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** Scores at which a category refuses (or does what the operator set) and asks for review. */
  scores: { block: number; review: number };
}

/** Each call's limit: a description waits at most this long for the service. */
export const MODERATION_API_TIMEOUT_MS = 5000;

const answerSchema = z.object({
  results: z.array(z.object({ category_scores: z.record(z.string(), z.number().min(0).max(1)) })).min(1),
});

/** Our categories, from OpenAI's: minors from `sexual/minors`, sexual from `sexual`, violence from `violence/graphic`. */
const CATEGORY_OF = { minors: 'sexual/minors', sexual: 'sexual', violence: 'violence/graphic' } as const;

/**
 * What the service finds in the texts: per category, the highest score over the texts, decided by
 * the thresholds (minors always refused at the block score). Throws when the service cannot answer
 * in time or answers something else (the caller then relies on the local lists).
 */
export async function moderateWithApi(
  config: ModerationApiConfig,
  actions: CategoryActions,
  texts: readonly string[],
): Promise<CategoryFinding[]> {
  const response = await fetch(`${config.baseUrl.replace(/\/+$/, '')}/moderations`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
    },
    body: JSON.stringify({ model: config.model, input: texts }),
    signal: AbortSignal.timeout(MODERATION_API_TIMEOUT_MS),
    redirect: 'error',
  });
  if (!response.ok) throw new Error(`the moderation service answered ${response.status}`);
  const answer = answerSchema.parse(await response.json());
  const findings: CategoryFinding[] = [];
  for (const [category, name] of Object.entries(CATEGORY_OF) as [keyof typeof CATEGORY_OF, string][]) {
    const score = Math.max(...answer.results.map((result) => result.category_scores[name] ?? 0));
    const action: ModerationDecision = category === 'minors' ? 'block' : actions[category];
    if (score >= config.scores.block)
      findings.push({ category, score, decision: action, matched: 'moderation service' });
    else if (score >= config.scores.review)
      findings.push({
        category,
        score,
        decision: action === 'allow' ? 'allow' : 'review',
        matched: 'moderation service',
      });
  }
  return findings;
}
