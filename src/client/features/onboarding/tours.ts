import type { TourId } from './tour-storage';

export interface TourStep {
  /** A CSS selector; the first visible match is highlighted. None: a centred step. */
  element?: string;
  title: string;
  /** `{retention}` is the operator's VIDEO_RETENTION_HOURS in words (tourSteps fills it in). */
  description: string;
  /** What the step says instead on a server with only the preview engine (no AI video model connected). */
  previewOnly?: string;
  /** What the step says instead where AI Enhance and image analysis are this server's own rules. */
  localAssist?: string;
  /** What the step says instead on a server that takes no payments (no word of dollars). */
  noPayments?: string;
}

/** What this installation can do, which some steps put in their own words. */
export interface TourInstallation {
  previewOnly: boolean;
  localAssist: boolean;
  /** No Stripe keys: credits are not sold here. */
  paymentsOff: boolean;
}

/** Screens (docs/product-rules.md), tours: welcome, image upload, video upload, text prompt, advanced JSON, audio detection, generate. */
const GENERATOR_TOUR: TourStep[] = [
  {
    title: 'Welcome to Create Video',
    description:
      'A quick look at how a video is made here. Use Next and Back, or the arrow keys; Skip Tour ends it at any time.',
  },
  {
    element: '[data-tour="upload-image"]',
    title: 'Start from an image',
    description: 'Optional: upload a JPG or PNG (up to 50 MB). The AI analyses it and suggests a description.',
    localAssist:
      'Optional: upload a JPG or PNG (up to 50 MB). This server measures its colours, light and objects and suggests a description.',
  },
  {
    element: '[data-tour="upload-video"]',
    title: 'Or from a video',
    description: 'Optional: upload an MP4 or MOV clip to restyle or continue it.',
  },
  {
    element: '[data-tour="description"]',
    title: 'Describe your video',
    description: 'Write the scene, the motion and the mood. AI Enhance can improve your wording before you generate.',
    localAssist:
      "Write the scene, the motion and the mood. AI Enhance (this server's writing rules) can add camera and lighting words before you generate.",
  },
  {
    element: '[data-tour="advanced-json"]',
    title: 'Advanced settings in JSON',
    // The shape, resolution and length have their own pickers; the box keeps what they do not cover.
    description:
      'Optional fine-tuning as JSON: a negativePrompt (what to leave out) and a seed (to repeat a result). The shape and length have their own pickers.',
  },
  {
    element: '[data-tour="audio"]',
    title: 'Audio is detected for you',
    description:
      'Mention music, a voice or sound and audio turns on by itself (+2 credits). Switch it off for a silent video.',
  },
  {
    element: '[data-tour="generate"]',
    title: 'Generate',
    description:
      'Check the cost and press Generate Video. You are taken to your media, where the video appears in a few minutes. Videos are kept for {retention}.',
  },
];

/** Screens (docs/product-rules.md), tours: welcome, credits explanation, unlimited access, how to create, get started. */
const FIRST_TIME_TOUR: TourStep[] = [
  {
    title: 'Welcome to Reelsmith',
    description: 'Turn an image, a clip or just a description into a short AI video. Here is where everything is.',
    previewOnly:
      'Turn an image, a clip or just a description into a short video. No AI video model is connected to this server yet, so videos are previews for now. Here is where everything is.',
  },
  {
    element: '[data-tour="nav-credits"]',
    title: 'Credits pay for videos',
    description:
      'A credit costs $1 and never expires. A standard video costs 1 credit, economy half a credit, and a video with audio 3.',
    noPayments:
      'A standard video costs 1 credit, economy half a credit, and a video with audio 3. Credits never expire. This server does not sell credits: for more, ask the person who runs it.',
  },
  {
    element: '[data-tour="nav-subscribe"]',
    title: 'Unlimited access',
    description: 'A daily subscription gives 15 generations every day (reset at 3am EST), and extra packs add more.',
  },
  {
    element: '[data-tour="nav-create"]',
    title: 'How to create',
    description: 'Open Create, add an image, video or audio if you like, describe your video and press Generate Video.',
  },
  {
    title: 'Get started',
    description:
      'Your videos appear under Media and are kept for {retention}, so download the ones you love. You can replay the Create Video tour from the credits card.',
  },
];

export const TOURS: Record<TourId, TourStep[]> = { generator: GENERATOR_TOUR, 'first-time': FIRST_TIME_TOUR };

/**
 * A tour's steps as shown: in this installation's words, with the retention in words ('24 hours',
 * '1 hour') filled in.
 */
export function tourSteps(id: TourId, retention: string, installation: TourInstallation): TourStep[] {
  return TOURS[id].map(({ previewOnly, localAssist, noPayments, ...step }) => {
    const words =
      (installation.previewOnly ? previewOnly : undefined) ??
      (installation.localAssist ? localAssist : undefined) ??
      (installation.paymentsOff ? noPayments : undefined) ??
      step.description;
    return { ...step, description: words.replaceAll('{retention}', retention) };
  });
}
