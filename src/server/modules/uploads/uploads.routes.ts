import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HOUR_MS } from '../../../shared/retention';
import { MAX_UPLOAD_BYTES, uploadCompleteSchema, uploadTargetSchema } from '../../../shared/uploads';
import type { ServiceContext } from '../../context';
import { rateLimitKey, requireUser } from '../../http/guards';
import {
  apiDoc,
  type ErrorAnswer,
  FILE_BODY,
  FILE_GONE,
  IDEMPOTENCY_ERRORS,
  UPLOAD_PATH,
  UPLOADED,
} from '../../http/openapi-words';
import { serveObject } from '../../http/serve-object';
import { notFound } from '../../lib/app-error';
import { untilAborted } from '../../lib/until-aborted';
import { fileFromForm, FORM_BODY, FORM_REFUSED } from './upload-form';
import { tooLarge } from './upload-guard';
import { watchUploadRate } from './upload-rate';
import { requireValidSignature } from './upload-signature';
import * as uploads from './uploads.service';
import { idempotentRoute } from '../idempotency/idempotency.service';

const uploadParams = z.object({ id: z.uuid('must be an upload id') });
const signatureQuery = z.object({ exp: z.string().max(20).optional(), sig: z.string().max(100).optional() });

/** Why an upload's file is refused, the same through every way in (a signed link, one request, a form). */
const UPLOAD_REFUSED: ErrorAnswer[] = [
  { status: 400, code: 'empty_file', message: 'The file is empty.' },
  {
    status: 408,
    code: 'upload_too_slow',
    message: 'The upload was too slow, so it was stopped. Check your connection, then try again.',
  },
  { status: 413, code: 'file_too_large', message: 'This file is larger than the 50 MB limit.' },
  {
    status: 415,
    code: 'unsupported_file_type',
    message: 'Only images, videos and audio files can be uploaded.',
  },
  { status: 422, code: 'media_unplayable', message: 'This video file has no picture that can be played.' },
];
const SIGNED_LINK_REFUSED: ErrorAnswer[] = [
  { status: 403, code: 'upload_link_expired', message: 'This upload link has expired.' },
  { status: 403, code: 'upload_link_used', message: 'This upload link has already been used.' },
];
/** The rate watcher's reason (a 408) as the error to answer with. */
const asError = (reason: unknown) => (reason instanceof Error ? reason : new Error(String(reason)));

export const uploadsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/objects/upload',
    {
      config: {
        tokenScope: 'uploads:write',
        doc: apiDoc('Uploads', {
          summary: 'Get a signed upload link',
          operationId: 'createUploadLink',
          description:
            'Step one of the two-step flow: send the file to `uploadURL` with `method`, `fields` and `headers` (no token needed there). Accepts `Idempotency-Key`.',
          idempotent: true,
          example: {
            uploadURL: `/api/uploads/c2e8f1a4-7d3b-4b6e-9a5c-8e1f2d4b6a90?exp=1764072000&sig=…`,
            objectPath: UPLOAD_PATH,
            method: 'PUT',
            fields: {},
            headers: {},
          },
          errors: [
            ...IDEMPOTENCY_ERRORS,
            {
              status: 429,
              code: 'too_many_pending_uploads',
              message:
                'You have 20 uploads waiting for their files. Send or cancel some, or wait a few minutes, then try again.',
            },
          ],
        }),
      },
      schema: { response: { 200: uploadTargetSchema } },
      // Idempotency-Key: a retried request answers the same upload link instead of reserving another.
      ...idempotentRoute(ctx),
    },
    async (request) => {
      return uploads.createUploadTarget(ctx, requireUser(request).id);
    },
  );

  app.post(
    '/api/files/cleanup',
    {
      config: {
        tokenScope: 'uploads:write',
        rateLimit: { max: 30, timeWindow: '1 minute' },
        doc: apiDoc('Uploads', {
          summary: 'Delete your expired unfinished uploads',
          operationId: 'deleteExpiredUploads',
          example: { deleted: 2 },
        }),
      },
      schema: { response: { 200: z.object({ deleted: z.number() }) } },
    },
    async (request) => ({ deleted: await uploads.sweepExpiredUploads(ctx, requireUser(request).id) }),
  );

  app.get(
    '/api/objects/uploads/:userId/:id',
    {
      config: {
        tokenScope: 'videos:read',
        doc: apiDoc('Uploads', {
          summary: 'Download one of your uploads',
          operationId: 'downloadUpload',
          servesFile: true,
          errors: [FILE_GONE],
        }),
      },
      schema: { params: z.object({ userId: z.uuid(), id: z.uuid() }) },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (request.params.userId !== user.id) throw notFound('This file is no longer available.', 'file_gone');
      const upload = await uploads
        .resolveUploadRef(ctx, user.id, uploads.objectPathOf(user.id, request.params.id))
        .catch(() => {
          throw notFound('This file is no longer available.', 'file_gone');
        });
      return serveObject(request, reply, ctx.storage, {
        key: upload.objectKey,
        contentType: upload.contentType,
        cacheSeconds: Math.floor((ctx.config.retention.videoHours * HOUR_MS) / 1000),
      });
    },
  );

  // The signed upload URL streams bodies itself: no body parsing, nothing buffered.
  await app.register(async (plugin) => {
    const raw = plugin.withTypeProvider<ZodTypeProvider>();
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

    /** `id` and its signature: the signed link's upload; `userId`: a new upload of the signed-in caller's. */
    const receive = async (
      request: FastifyRequest,
      target: { id: string; query: z.infer<typeof signatureQuery> } | { userId: string },
      viaForm: boolean,
    ) => {
      if ('id' in target) requireValidSignature(ctx.secret, target.id, target.query.exp, target.query.sig, ctx.now());
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared > MAX_UPLOAD_BYTES + (viaForm ? 64 * 1024 : 0)) throw tooLarge();
      // A client trickling bytes (even before the form's file part) is cut off with 408.
      const rate = watchUploadRate(request.raw);
      try {
        const body = viaForm ? await untilAborted(fileFromForm(request), rate.signal, asError) : request.raw;
        return 'id' in target
          ? await uploads.receiveUpload(ctx, target.id, body, rate.signal)
          : await uploads.uploadInOneRequest(ctx, target.userId, body, rate.signal);
      } finally {
        rate.stop();
      }
    };
    // The client may still be sending when we refuse: close the connection rather than read the rest.
    const closingOnError = async <T>(request: FastifyRequest, reply: FastifyReply, run: () => Promise<T>) => {
      try {
        return await run();
      } catch (error) {
        if (!request.raw.complete) reply.header('connection', 'close');
        throw error;
      }
    };
    const schema = { params: uploadParams, querystring: signatureQuery, response: { 200: uploadCompleteSchema } };
    const handle =
      (viaForm: boolean) =>
      async (
        request: FastifyRequest<{ Params: { id: string }; Querystring: z.infer<typeof signatureQuery> }>,
        reply: FastifyReply,
      ) =>
        closingOnError(request, reply, () =>
          receive(request, { id: request.params.id, query: request.query }, viaForm),
        );
    raw.put(
      '/api/uploads/:id',
      {
        config: {
          tokenScope: 'uploads:write',
          doc: apiDoc('Uploads', {
            summary: 'Send a file to a signed upload link',
            operationId: 'sendFileToUploadLink',
            description: 'Step two: the signed link is its own permission (`exp` and `sig` in its query).',
            public: true,
            requestContent: FILE_BODY,
            example: UPLOADED,
            errors: [...SIGNED_LINK_REFUSED, ...UPLOAD_REFUSED],
          }),
        },
        schema,
      },
      handle(false),
    );
    raw.post(
      '/api/uploads/:id',
      {
        config: {
          tokenScope: 'uploads:write',
          doc: apiDoc('Uploads', {
            summary: 'Send a file to a signed upload link as a form',
            operationId: 'sendFormToUploadLink',
            public: true,
            requestContent: FORM_BODY,
            example: UPLOADED,
            errors: [...SIGNED_LINK_REFUSED, ...FORM_REFUSED, ...UPLOAD_REFUSED],
          }),
        },
        schema,
      },
      handle(true),
    );

    // One request for programs (an access token with uploads:write, or a session): the file as the
    // body of PUT /api/uploads, or as the file of a multipart form POSTed there. Same limits and
    // checks as the signed link; the answer names the objectPath a generation takes.
    const oneRequest = (viaForm: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
      const user = requireUser(request);
      return closingOnError(request, reply, () => receive(request, { userId: user.id }, viaForm));
    };
    const oneRequestLimits = {
      tokenScope: 'uploads:write' as const,
      rateLimit: { max: 30, timeWindow: '1 minute', keyGenerator: rateLimitKey },
    };
    const uploaded = { response: { 200: uploadCompleteSchema } };
    raw.put(
      '/api/uploads',
      {
        config: {
          ...oneRequestLimits,
          doc: apiDoc('Uploads', {
            summary: 'Upload a file in one request',
            operationId: 'uploadFile',
            description:
              'The file is the request body (JPEG, PNG, WebP, MP4, WebM, MP3 or WAV, at most 50 MB). The answer’s `objectPath` is what a generation takes as `imageFile`, `videoFile` or `audioFile`.',
            requestContent: FILE_BODY,
            example: UPLOADED,
            errors: UPLOAD_REFUSED,
          }),
        },
        schema: uploaded,
      },
      oneRequest(false),
    );
    raw.post(
      '/api/uploads',
      {
        config: {
          ...oneRequestLimits,
          doc: apiDoc('Uploads', {
            summary: 'Upload a file as a form',
            operationId: 'uploadForm',
            description: 'As PUT /api/uploads, with the file as the part of a multipart/form-data body.',
            requestContent: FORM_BODY,
            example: UPLOADED,
            errors: [...FORM_REFUSED, ...UPLOAD_REFUSED],
          }),
        },
        schema: uploaded,
      },
      oneRequest(true),
    );
  });
};
