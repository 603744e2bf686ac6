import type { ReviewFinding, ReviewStage } from '../../../shared/moderation';

// How the admin pages word what screening flagged: the jobs console's held jobs and the safety queue.

const CATEGORY_WORDS = {
  minors: 'minors',
  sexual: 'sexual content',
  violence: 'graphic violence',
  taken_down: 'a match with a taken-down video',
} as const;

/** Where screening flagged a held job, ending the sentence; `release` is the button that lets it through. */
const HELD_WHERE = {
  description: () => 'in its description.',
  input: () => 'in a picture or video it starts from.',
  output: (release: string) => `in the finished video, which its owner does not see until you ${release} it.`,
} as const;

/** 'sexual content (50%), graphic violence (72%)'. */
export function describeFindings(findings: readonly ReviewFinding[]): string {
  return findings
    .map((finding) => `${CATEGORY_WORDS[finding.category]} (${Math.round(finding.score * 100)}%)`)
    .join(', ');
}

/**
 * 'screening flagged sexual content (50%) in its description.' A hold kept without its stage was a
 * description's; `release` names the action that shows a held finished video ('approve', 'restore').
 */
export function describeHold(
  findings: readonly ReviewFinding[],
  stage: ReviewStage | null | undefined,
  release = 'approve',
): string {
  return `screening flagged ${describeFindings(findings)} ${HELD_WHERE[stage ?? 'description'](release)}`;
}
