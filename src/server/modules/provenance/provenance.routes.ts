import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { credentialsReportSchema, VERIFIABLE_TYPES } from '../../../shared/provenance';
import type { ServiceContext } from '../../context';
import { apiDoc, FILE_BODY } from '../../http/openapi-words';
import { AppError } from '../../lib/app-error';
import { makeWorkDir, removeWorkDir } from '../../media/work-dirs';
import { readCredentials } from '../../provenance/c2pa';
import { summarise } from '../../provenance/summary';
import { receiveCheckedFile } from '../uploads/uploads.service';
import { videoSigner } from './provenance.service';

const notReadable = () =>
  new AppError(
    415,
    'unsupported_file_type',
    'Content Credentials can be checked on MP4 and MOV videos and on JPEG, PNG and WebP pictures.',
  );

/**
 * POST /api/provenance/verify: anyone (no sign-in) sends a file as the request body and hears what
 * its Content Credentials say. The file is streamed to a work folder, read, and deleted: never kept.
 */
export const provenanceRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  app.post(
    '/api/provenance/verify',
    {
      config: {
        rateLimit: { max: 20, timeWindow: '1 minute' },
        doc: apiDoc('Provenance', {
          summary: 'Check the Content Credentials of a file',
          description:
            'The file is the request body (MP4 or MOV video, JPEG, PNG or WebP picture, at most 50 MB); it is read and never kept. The answer says whether it carries Content Credentials, whether they are intact, who signed them and when, with which model and from which ingredients. No sign-in needed.',
          public: true,
          requestContent: FILE_BODY,
          example: {
            hasCredentials: true,
            intact: true,
            trusted: true,
            signedBy: 'Reelsmith reelsmith.example',
            issuer: 'Reelsmith',
            signedAt: '2026-11-28T10:15:00.000Z',
            madeWith: 'Reelsmith 0.1.0',
            sourceType: 'trainedAlgorithmicMedia',
            model: 'Veo 3 (fal.ai)',
            installation: 'https://reelsmith.example',
            ingredients: [
              {
                title: 'image upload',
                relationship: 'inputTo',
                format: 'image/png',
                sha256: 'a8127e2308d2c0266f13009a5edf52089ef9ac795bce75719e7eed8ffdc14918',
                hasCredentials: false,
              },
            ],
            edits: [],
            problems: [],
          },
          errors: [
            { status: 413, code: 'file_too_large', message: 'This file is larger than the 50 MB limit.' },
            {
              status: 415,
              code: 'unsupported_file_type',
              message: 'Content Credentials can be checked on MP4 and MOV videos and on JPEG, PNG and WebP pictures.',
            },
            {
              status: 422,
              code: 'unreadable_file',
              message: 'This file could not be read: it may be damaged or cut short.',
            },
          ],
        }),
      },
      schema: { response: { 200: credentialsReportSchema } },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const workDir = await makeWorkDir('uploadCheck');
      try {
        const file = path.join(workDir, 'checked');
        const mime = await receiveCheckedFile(request.raw, file);
        if (!(VERIFIABLE_TYPES as readonly string[]).includes(mime)) throw notReadable();
        const { anchorPem } = await videoSigner(ctx);
        const store = await readCredentials({ file }, mime, anchorPem).catch((error: unknown) => {
          request.log.info({ err: error }, 'credentials unreadable');
          throw new AppError(422, 'unreadable_file', 'This file could not be read: it may be damaged or cut short.');
        });
        return reply.send(summarise(store));
      } catch (error) {
        if (!request.raw.complete) reply.header('connection', 'close');
        throw error;
      } finally {
        await removeWorkDir(workDir);
      }
    },
  );
};
