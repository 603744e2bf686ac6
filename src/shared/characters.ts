import { z } from 'zod';
export { CHARACTER_MODES, type CharacterMode, characterModeOf } from './models';
import { multiLine, singleLine } from './text';

// Characters (issue 47): a user's library of named characters and objects, each 1 to 3 reference
// pictures and a short description, put into any shot or generation by id (`characterId`).

export const MAX_CHARACTERS = 50;
export const MAX_CHARACTER_IMAGES = 3;
export const MAX_CHARACTER_NAME_LENGTH = 60;
export const MAX_CHARACTER_DESCRIPTION_LENGTH = 500;

/** The words a character adds to a prompt, for a model that keeps it by description. */
export function characterPromptLine(character: { name: string; description: string }): string {
  const description = character.description.trim();
  return description ? `${character.name}: ${description}` : character.name;
}

const name = z.string().trim().min(1).max(MAX_CHARACTER_NAME_LENGTH).check(singleLine);
const description = z
  .string()
  .trim()
  .max(MAX_CHARACTER_DESCRIPTION_LENGTH, `must be at most ${MAX_CHARACTER_DESCRIPTION_LENGTH} characters`)
  .check(multiLine)
  .default('');

/** POST /api/characters: pictures are image uploads of the user's (their objectPath), copied to keep. */
export const createCharacterSchema = z.strictObject({
  name,
  description,
  imageFiles: z
    .array(z.string().trim().min(1).max(1000).check(singleLine))
    .min(1, 'must have at least 1 picture')
    .max(MAX_CHARACTER_IMAGES, `must have at most ${MAX_CHARACTER_IMAGES} pictures`),
  /** The uploader confirms they are the person a picture shows, or have their consent (required when one shows a face). */
  consentToLikeness: z.boolean().default(false),
});
export type CreateCharacterRequest = z.input<typeof createCharacterSchema>;

/** PUT /api/characters/:id: its name and description (its pictures stay as made). */
export const updateCharacterSchema = z.strictObject({ name, description });

export const characterSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  /** Signed links to its pictures, in order. */
  images: z.array(z.object({ url: z.string() })),
  /** A picture shows a real person, whose consent the maker confirmed. */
  showsPeople: z.boolean(),
  createdAt: z.string(),
});
export type Character = z.infer<typeof characterSchema>;
export const characterListSchema = z.object({ characters: z.array(characterSchema) });
