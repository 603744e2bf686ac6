import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import {
  type Character,
  type createCharacterSchema,
  MAX_CHARACTERS,
  type updateCharacterSchema,
} from '../../../shared/characters';
import {
  CONSENT_REQUIRED_CODE,
  CONSENT_REQUIRED_MESSAGE,
  LIKENESS_CONSENT_STATEMENT,
  LIKENESS_CONSENT_VERSION,
} from '../../../shared/moderation';
import type { ServiceContext } from '../../context';
import type { CharacterImage, CharacterRow } from '../../db/schema';
import { AppError, badRequest, notFound } from '../../lib/app-error';
import { mediaUrl } from '../../storage/media-links';
import { refuseBlockedPrompt } from '../moderation/moderation.service';
import { discardUploads, resolveUploadRefs, storeServerImage, uploadsShowingPeople } from '../uploads/uploads.service';
import * as repo from './characters.repository';

// Characters (issue 47): a library per user of named characters and objects. Their pictures are
// copied out of the uploads (which live 24 hours) under the user's outputs, which deleting the
// account removes; a generation naming a character gets fresh upload copies of them as reference
// images (characterUploads), so everything after that is a generation's inputs as usual.

type CreateCharacterBody = z.output<typeof createCharacterSchema>;
type UpdateCharacterBody = z.output<typeof updateCharacterSchema>;

/** Under `outputs/<user>/`, the prefix deleting an account removes (generations' lifecycle.service userOutputsPrefix). */
const pictureKeyFor = (userId: string, characterId: string, index: number) =>
  `outputs/${userId}/character-${characterId}-${index + 1}`;

/** Links to a character's pictures last six hours from the hour they were made (stable between reads). */
const LINK_HOURS = 6;

const characterNotFound = () =>
  notFound('This character was not found in your library. It may have been deleted.', 'character_not_found');

export async function listCharacters(ctx: ServiceContext, userId: string): Promise<Character[]> {
  const rows = await repo.listForUser(ctx.db, userId, MAX_CHARACTERS);
  return rows.map((row) => presentCharacter(ctx, row));
}

/**
 * A new character from 1 to 3 image uploads of the user's: its words screened like a description,
 * a picture of a real person only with the maker's consent (as for a generation from it), and a
 * picture screening held for review refused. The pictures are copied, so the uploads may expire.
 */
export async function createCharacter(
  ctx: ServiceContext,
  userId: string,
  body: CreateCharacterBody,
  log?: FastifyBaseLogger,
): Promise<Character> {
  await refuseBlockedPrompt(ctx, [body.name, body.description], log);
  if ((await repo.countForUser(ctx.db, userId)) >= MAX_CHARACTERS)
    throw badRequest(
      `Your library holds up to ${MAX_CHARACTERS} characters. Delete one you no longer use, then add this one.`,
      'too_many_characters',
    );
  const uploads = await resolveUploadRefs(ctx, userId, body.imageFiles);
  for (const [index, upload] of uploads.entries()) {
    if (upload.kind !== 'image')
      throw badRequest(`Picture ${index + 1} must be an image; that upload is not one.`, 'wrong_input_kind');
    if (upload.flagged)
      throw badRequest(
        `Picture ${index + 1} is waiting for a review by the administrators, so a character cannot be made from it. Choose another picture.`,
        'picture_under_review',
      );
  }
  const people = await uploadsShowingPeople(ctx, uploads);
  if (people.length > 0 && !body.consentToLikeness)
    throw new AppError(422, CONSENT_REQUIRED_CODE, CONSENT_REQUIRED_MESSAGE);
  const id = randomUUID();
  const images: CharacterImage[] = [];
  try {
    for (const [index, upload] of uploads.entries()) {
      const key = pictureKeyFor(userId, id, index);
      await ctx.storage.put(key, await ctx.storage.read(upload.objectKey), upload.contentType);
      images.push({ key, contentType: upload.contentType, faces: people.includes(upload.id) ? 1 : 0 });
    }
    const row = await repo.insert(ctx.db, {
      id,
      userId,
      name: body.name,
      description: body.description,
      images,
      consent:
        people.length > 0
          ? {
              statement: LIKENESS_CONSENT_STATEMENT,
              version: LIKENESS_CONSENT_VERSION,
              confirmedAt: ctx.now().toISOString(),
              uploadIds: people,
            }
          : null,
    });
    return presentCharacter(ctx, row);
  } catch (error) {
    await Promise.all(images.map((image) => ctx.storage.delete(image.key).catch(() => undefined)));
    throw error;
  }
}

export async function updateCharacter(
  ctx: ServiceContext,
  userId: string,
  id: string,
  body: UpdateCharacterBody,
  log?: FastifyBaseLogger,
): Promise<Character> {
  await refuseBlockedPrompt(ctx, [body.name, body.description], log);
  const row = await repo.update(ctx.db, userId, id, body);
  if (!row) throw characterNotFound();
  return presentCharacter(ctx, row);
}

/** Deletes the character and its pictures; videos made with it keep their own copies until they expire. */
export async function deleteCharacter(ctx: ServiceContext, userId: string, id: string): Promise<void> {
  const row = await repo.deleteForUser(ctx.db, userId, id);
  if (!row) throw characterNotFound();
  await Promise.all(row.images.map((image) => ctx.storage.delete(image.key)));
}

/** A character a request names: the user's own, or a 404 sentence. */
export async function characterForRequest(ctx: ServiceContext, userId: string, id: string): Promise<CharacterRow> {
  const row = await repo.findForUser(ctx.db, userId, id);
  if (!row) throw characterNotFound();
  return row;
}

/**
 * Fresh image uploads of a character's pictures, for a generation's reference images (they live as
 * its inputs do, and go with it): their object paths. A picture of a real person keeps the consent given when the character was made.
 */
export async function characterUploads(
  ctx: ServiceContext,
  userId: string,
  character: CharacterRow,
): Promise<string[]> {
  const refs: string[] = [];
  try {
    for (const image of character.images) {
      const stored = await storeServerImage(
        ctx,
        userId,
        await ctx.storage.read(image.key),
        image.contentType,
        image.faces,
      );
      refs.push(stored.objectPath);
    }
  } catch (error) {
    await discardCharacterUploads(ctx, userId, refs);
    throw error;
  }
  return refs;
}

/** Discards the copies characterUploads made (by their object paths), for a generation that was refused. */
export async function discardCharacterUploads(ctx: ServiceContext, userId: string, refs: string[]): Promise<void> {
  if (refs.length === 0) return;
  const uploads = await resolveUploadRefs(ctx, userId, refs).catch(() => []);
  await discardUploads(
    ctx,
    userId,
    uploads.map((upload) => upload.id),
  );
}

function presentCharacter(ctx: ServiceContext, row: CharacterRow): Character {
  const hour = new Date(ctx.now());
  hour.setUTCMinutes(0, 0, 0);
  const expiresAt = new Date(hour.getTime() + LINK_HOURS * 3_600_000);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    images: row.images.map((image) => ({
      url: mediaUrl(ctx.secret, { key: image.key, contentType: image.contentType, expiresAt }),
    })),
    showsPeople: row.consent !== null,
    createdAt: row.createdAt.toISOString(),
  };
}
