import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageSchema } from '../../../shared/auth';
import {
  characterListSchema,
  characterSchema,
  createCharacterSchema,
  updateCharacterSchema,
} from '../../../shared/characters';
import { CONSENT_REQUIRED_CODE, CONSENT_REQUIRED_MESSAGE } from '../../../shared/moderation';
import type { ServiceContext } from '../../context';
import { rateLimitKey, requireUser } from '../../http/guards';
import { idParams, uuidOr404 } from '../../http/path-ids';
import { apiDoc, CONTENT_POLICY, type ErrorAnswer, UPLOAD_PATH } from '../../http/openapi-words';
import * as characters from './characters.service';

// Characters (issue 47): the user's library of characters and objects, put into a generation or a
// storyboard's shot by `characterId`.

const NOT_FOUND_CHARACTER: ErrorAnswer = {
  status: 404,
  code: 'character_not_found',
  message: 'This character was not found in your library. It may have been deleted.',
};

const characterId = (id: string) => uuidOr404(id, NOT_FOUND_CHARACTER);

const CHARACTER_EXAMPLE = {
  id: '3f2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d',
  name: 'Captain Mira',
  description: 'A tall lighthouse keeper in a yellow raincoat, grey braid, round glasses',
  images: [{ url: '/api/media/b3V0cHV0cy9…?exp=1764403200&sig=…' }],
  showsPeople: false,
  createdAt: '2026-11-29T10:00:00.000Z',
};

export const charactersRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/api/characters',
    {
      config: {
        tokenScope: 'videos:read',
        doc: apiDoc('Videos', {
          summary: 'List your characters',
          operationId: 'listCharacters',
          description:
            'Your library of characters and objects, the newest first, with signed links to their pictures. Put one ' +
            'into a video or a storyboard shot with `characterId`; GET /api/models says how each model keeps it (`character`).',
          example: { characters: [CHARACTER_EXAMPLE] },
        }),
      },
      schema: { response: { 200: characterListSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      return { characters: await characters.listCharacters(ctx, user.id) };
    },
  );

  app.post(
    '/api/characters',
    {
      config: {
        tokenScope: 'videos:write',
        rateLimit: { max: 20, timeWindow: '1 minute', keyGenerator: rateLimitKey },
        doc: apiDoc('Videos', {
          summary: 'Add a character',
          operationId: 'createCharacter',
          description:
            'A named character or object from 1 to 3 image uploads (their `objectPath`), copied so they outlive the ' +
            'uploads, and a short description. A picture of a real person needs `consentToLikeness`, as a video made ' +
            'from one does; videos made with the character then carry that consent.',
          requestExample: {
            name: 'Captain Mira',
            description: 'A tall lighthouse keeper in a yellow raincoat, grey braid, round glasses',
            imageFiles: [UPLOAD_PATH],
          },
          example: CHARACTER_EXAMPLE,
          errors: [
            {
              status: 400,
              code: 'invalid_upload',
              message: 'That file is not one of your uploads, or its upload did not finish.',
            },
            { status: 400, code: 'wrong_input_kind', message: 'Picture 1 must be an image; that upload is not one.' },
            {
              status: 400,
              code: 'too_many_characters',
              message: 'Your library holds up to 50 characters. Delete one you no longer use, then add this one.',
            },
            { status: 422, code: CONSENT_REQUIRED_CODE, message: CONSENT_REQUIRED_MESSAGE },
            CONTENT_POLICY,
          ],
        }),
      },
      schema: { body: createCharacterSchema, response: { 201: characterSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      return reply.status(201).send(await characters.createCharacter(ctx, user.id, request.body, request.log));
    },
  );

  app.put(
    '/api/characters/:id',
    {
      config: {
        tokenScope: 'videos:write',
        rateLimit: { max: 60, timeWindow: '1 minute', keyGenerator: rateLimitKey },
        doc: apiDoc('Videos', {
          summary: 'Rename or describe a character',
          operationId: 'updateCharacter',
          description: 'Its name and description; its pictures stay as they were made.',
          requestExample: { name: 'Captain Mira', description: 'A lighthouse keeper in a yellow raincoat' },
          example: CHARACTER_EXAMPLE,
          errors: [NOT_FOUND_CHARACTER, CONTENT_POLICY],
        }),
      },
      schema: { params: idParams, body: updateCharacterSchema, response: { 200: characterSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      return characters.updateCharacter(ctx, user.id, characterId(request.params.id), request.body, request.log);
    },
  );

  app.delete(
    '/api/characters/:id',
    {
      config: {
        tokenScope: 'videos:write',
        doc: apiDoc('Videos', {
          summary: 'Delete a character',
          operationId: 'deleteCharacter',
          description: 'The character and its pictures; videos made with it keep theirs until they expire.',
          example: { message: 'Character deleted' },
          errors: [NOT_FOUND_CHARACTER],
        }),
      },
      schema: { params: idParams, response: { 200: messageSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      await characters.deleteCharacter(ctx, user.id, characterId(request.params.id));
      return { message: 'Character deleted' };
    },
  );
};
