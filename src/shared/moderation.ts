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

/** The sentence a refused picture gets. */
export const pictureRefusal = (category: ModerationCategory) =>
  `This picture can't be used. ${POLICY_RULES[category]} Choose another picture.`;

/** The sentence a refused video upload gets. */
export const videoRefusal = (category: ModerationCategory) =>
  `This video can't be used. ${POLICY_RULES[category]} Choose another video.`;

/** The failure message of a video the content policy stopped after it was rendered (never shown). */
export const BLOCKED_OUTPUT_MESSAGE = 'Blocked by the content policy.';

/** The decision that wins when several apply: the strictest. */
export function strictest(decisions: readonly ModerationDecision[]): ModerationDecision {
  if (decisions.includes('block')) return 'block';
  return decisions.includes('review') ? 'review' : 'allow';
}

/** The error code of a generation whose inputs show a person, sent without the uploader's consent (422). */
export const CONSENT_REQUIRED_CODE = 'consent_required';

/** What the uploader confirms when an input shows a face: the checkbox's words, kept with the job. */
export const LIKENESS_CONSENT_STATEMENT =
  'I am the person shown, or I have the consent of every person shown to make this video of them.';
/** Moves when the statement's words change, so each job keeps which words were confirmed. */
export const LIKENESS_CONSENT_VERSION = '2026-11-28';

export const CONSENT_REQUIRED_MESSAGE =
  'A picture you chose shows a person. Confirm that you are that person, or have their consent, to make a video of them.';

/**
 * Where screening flagged a job: its description (held before it is rendered), a picture or video it
 * starts from (held likewise), or the finished video (made, stored, and not shown until decided).
 */
export const REVIEW_STAGES = ['description', 'input', 'output'] as const;
export type ReviewStage = (typeof REVIEW_STAGES)[number];

/**
 * What a held job's findings can name: a category, or a match with the frames of a video an
 * administrator took down (issue 44; its score is how alike, 1 for the same picture).
 */
export const REVIEW_FINDING_CATEGORIES = [...MODERATION_CATEGORIES, 'taken_down'] as const;
export type ReviewFindingCategory = (typeof REVIEW_FINDING_CATEGORIES)[number];

/** What screening flagged, as kept for the administrator: the category and the score (never the term). */
export interface ReviewFinding {
  category: ReviewFindingCategory;
  score: number;
}

/** What a picture or video matching a taken-down video is told when SAFETY_MATCH_ACTION=block. */
export const TAKEN_DOWN_MATCH_MESSAGE =
  'This matches a video that was taken down from this server after a report, so it cannot be used here.';

/** A job held for an administrator's decision: where and what screening flagged, and when. */
export interface ReviewHold {
  findings: ReviewFinding[];
  heldAt: string;
  /** Absent on holds made before the stage was kept: those were descriptions. */
  stage?: ReviewStage;
}

/** The progress stage of a job held for review, as its owner sees it. */
export const HELD_FOR_REVIEW_STAGE = 'Held for review';

/** The consent kept with a job: the statement confirmed, its version, when, and which uploads showed faces. */
export interface LikenessConsent {
  statement: string;
  version: string;
  confirmedAt: string;
  uploadIds: string[];
}
