import type { z } from 'zod';
import {
  type AdvancedSettings,
  type createGenerationSchema,
  MAX_PROMPT_LENGTH,
  parseAdvancedSettings,
  PROMPT_REQUIRED_MESSAGE,
} from '../../../shared/generations';
import { badRequest } from '../../lib/app-error';
import type { AiUseClaim } from '../prompts/prompts.service';

/** POST /api/video-generation's body as the route's schema parsed it: either request shape. */
export type CreateGenerationBody = z.output<typeof createGenerationSchema>;

/** A generation request in the one shape `createGeneration` reads, whichever shape the client sent. */
export interface NewGeneration {
  /** The engine's prompt: the description, with the audio description appended while audio is on. */
  prompt: string;
  settings: AdvancedSettings;
  imageFile: string | null;
  videoFile: string | null;
  audioFile: string | null;
  /** Keyframes: the end frame (imageFile is the start frame). */
  endImageFile: string | null;
  /** Reference images, up to the model's `referenceImages`. */
  referenceImageFiles: string[];
  /** A character of the user's library, put in as the model keeps one. */
  characterId: string | null;
  hasAudio: boolean;
  isEconomy: boolean;
  duration: number;
  model: CreateGenerationBody['model'];
  /** What the request says it used of the AI helpers, checked before anything is charged. */
  aiUse: AiUseClaim;
  /** The uploader confirmed they are the person an input shows, or have their consent. */
  consentToLikeness: boolean;
  /** A draft: made on the cheapest model and resolution the server has for it. */
  draft: boolean;
}

/** What joins the description and the audio description in the engine's prompt. */
export const AUDIO_DESCRIPTION_SEPARATOR = '\n\nAudio: ';

/** The engine's prompt: the description, with the audio description appended when audio is on and one is given. */
export function composeEnginePrompt(description: string, audio: { enabled: boolean; description: string }): string {
  const text = description.trim();
  const sound = audio.description.trim();
  return audio.enabled && sound ? `${text}${AUDIO_DESCRIPTION_SEPARATOR}${sound}` : text;
}

const NEW_FIELDS = ['description', 'audioDescription', 'settings', 'aiResultIds'] as const;
const OLDER_FIELDS = ['prompt', 'jsonPrompt', 'usedPromptEnhancement', 'usedImageAnalysis'] as const;

/**
 * Reads either request shape into one: this app's (description, audioDescription, settings,
 * aiResultIds) or the specification's (prompt with the audio description appended, jsonPrompt as
 * text, usedPromptEnhancement/usedImageAnalysis). A field sent as null counts as not sent. A body
 * with fields of both is refused; a body with neither is read as the older shape (so it gets the
 * same answer as today: a description is required).
 */
export function normaliseGenerationRequest(body: CreateGenerationBody): NewGeneration {
  const isNew = NEW_FIELDS.some((field) => body[field] != null);
  const isOlder = OLDER_FIELDS.some((field) => body[field] != null);
  if (isNew && isOlder) {
    throw badRequest(
      'Send either description, audioDescription, settings and aiResultIds, or the older prompt, jsonPrompt, usedPromptEnhancement and usedImageAnalysis, not both.',
      'mixed_request_shapes',
    );
  }
  const request = isNew ? fromRequest(body) : fromOlderRequest(body);
  return { ...request, settings: withControls(body, request.settings) };
}

const CONTROLS = ['aspectRatio', 'resolution', 'cameraMove'] as const;

/**
 * The request's own shape and camera fields joined with the settings (where the engine reads them);
 * the same control sent in both with different values is refused.
 */
function withControls(body: CreateGenerationBody, settings: AdvancedSettings): AdvancedSettings {
  const joined: AdvancedSettings = { ...settings };
  for (const control of CONTROLS) {
    const value = body[control];
    if (value == null) continue;
    if (settings[control] !== undefined && settings[control] !== value) {
      throw badRequest(
        `${control} is ${value} but the settings say ${settings[control]}. Send it once.`,
        'conflicting_controls',
      );
    }
    Object.assign(joined, { [control]: value });
  }
  return joined;
}

function common(body: CreateGenerationBody) {
  return {
    imageFile: body.imageFile,
    videoFile: body.videoFile,
    audioFile: body.audioFile,
    endImageFile: body.endImageFile,
    referenceImageFiles: body.referenceImageFiles,
    characterId: body.characterId ?? null,
    hasAudio: body.hasAudio,
    isEconomy: body.isEconomy,
    duration: body.duration,
    model: body.model,
    consentToLikeness: body.consentToLikeness,
    draft: body.draft,
  };
}

function fromRequest(body: CreateGenerationBody): NewGeneration {
  const description = body.description?.trim() ?? '';
  if (!description) throw badRequest(PROMPT_REQUIRED_MESSAGE, 'prompt_required');
  const prompt = composeEnginePrompt(description, { enabled: body.hasAudio, description: body.audioDescription ?? '' });
  // The same limit as the older shape's prompt: a stored prompt stays short enough to Remix as a description.
  if (prompt.length > MAX_PROMPT_LENGTH) {
    throw badRequest(
      `The description and the audio description together must be at most ${MAX_PROMPT_LENGTH} characters.`,
      'prompt_too_long',
    );
  }
  return {
    ...common(body),
    prompt,
    // The route's schema has checked the known keys (a wrong value is a 400 naming its key) and dropped the others.
    settings: body.settings ?? {},
    aiUse: { by: 'ids', ids: body.aiResultIds ?? {} },
  };
}

function fromOlderRequest(body: CreateGenerationBody): NewGeneration {
  const prompt = body.prompt?.trim() ?? '';
  if (!prompt) throw badRequest(PROMPT_REQUIRED_MESSAGE, 'prompt_required');
  const settings = parseAdvancedSettings(body.jsonPrompt);
  if (!settings.ok) throw badRequest(settings.message, 'invalid_advanced_settings');
  return {
    ...common(body),
    prompt,
    settings: settings.settings,
    aiUse: {
      by: 'text',
      descriptions: descriptionsIn(prompt),
      usedPromptEnhancement: body.usedPromptEnhancement ?? false,
      usedImageAnalysis: body.usedImageAnalysis ?? false,
    },
  };
}

/**
 * The descriptions an older-shape prompt may hold, for checking its AI claims: the prompt itself,
 * and the part before each audio separator (the client appended an audio description, which may
 * itself contain the separator's words).
 */
function descriptionsIn(prompt: string): string[] {
  const found = [prompt];
  for (
    let at = prompt.indexOf(AUDIO_DESCRIPTION_SEPARATOR);
    at >= 0;
    at = prompt.indexOf(AUDIO_DESCRIPTION_SEPARATOR, at + 1)
  ) {
    found.push(prompt.slice(0, at));
  }
  return found;
}
