import Busboy from 'busboy';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { PassThrough, type Readable } from 'node:stream';
import { z } from 'zod';
import { HOUR_MS } from '../../../shared/retention';
import { MAX_UPLOAD_BYTES, uploadCompleteSchema, uploadTargetSchema } from '../../../shared/uploads';
import type { ServiceContext } from '../../context';
import { rateLimitKey, requireUser } from '../../http/guards';
import { serveObject } from '../../http/serve-object';
import { badRequest, notFound } from '../../lib/app-error';
import { untilAborted } from '../../lib/until-aborted';
import { tooLarge } from './upload-guard';
import { watchUploadRate } from './upload-rate';
import { requireValidSignature } from './upload-signature';
import * as uploads from './uploads.service';
import { idempotentRoute } from '../idempotency/idempotency.service';

const uploadParams = z.object({ id: z.uuid('must be an upload id') });
const signatureQuery = z.object({ exp: z.string().max(20).optional(), sig: z.string().max(100).optional() });

/** The file part of a form POST, as a stream (fields before it are ignored; the server chose the key). */
function fileFromForm(request: FastifyRequest): Promise<Readable> {
  return new Promise((resolve, reject) => {
    let busboy: Busboy.Busboy;
    try {
      busboy = Busboy({ headers: request.headers, limits: { files: 1, fields: 20, fieldSize: 8192 } });
    } catch {
      reject(badRequest('Send the file as multipart/form-data.', 'invalid_form'));
      return;
    }
    // A malformed form is the client's fault: a 400, also when it breaks after the file began.
    const refused = (error: unknown) =>
      badRequest(
        `The form could not be read: ${error instanceof Error ? error.message : String(error)}.`,
        'invalid_form',
      );
    // Once handed out, the file stream carries the failure (its reader listens); before that, the promise does.
    let file: PassThrough | null = null;
    busboy.on('file', (_name, stream: Readable) => {
      const out = new PassThrough();
      // The reader attaches after an await (the upload row is claimed first): until then the
      // stream keeps its error (out.errored) for the reader to find, instead of throwing it.
      out.on('error', () => undefined);
      stream.on('error', (error) => out.destroy(refused(error)));
      stream.pipe(out);
      file = out;
      resolve(out);
    });
    busboy.on('error', (error: unknown) => {
      if (file) file.destroy(refused(error));
      else reject(refused(error));
    });
    busboy.on('finish', () => reject(badRequest('The form has no file.', 'missing_file')));
    request.raw.pipe(busboy);
  });
}

/** The rate watcher's reason (a 408) as the error to answer with. */
const asError = (reason: unknown) => (reason instanceof Error ? reason : new Error(String(reason)));

export const uploadsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/objects/upload',
    {
      config: { tokenScope: 'uploads:write' },
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
      config: { tokenScope: 'uploads:write', rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { response: { 200: z.object({ deleted: z.number() }) } },
    },
    async (request) => ({ deleted: await uploads.sweepExpiredUploads(ctx, requireUser(request).id) }),
  );

  app.get(
    '/api/objects/uploads/:userId/:id',
    { config: { tokenScope: 'videos:read' }, schema: { params: z.object({ userId: z.uuid(), id: z.uuid() }) } },
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
    raw.put('/api/uploads/:id', { config: { tokenScope: 'uploads:write' }, schema }, handle(false));
    raw.post('/api/uploads/:id', { config: { tokenScope: 'uploads:write' }, schema }, handle(true));

    // One request for programs (an access token with uploads:write, or a session): the file as the
    // body of PUT /api/uploads, or as the file of a multipart form POSTed there. Same limits and
    // checks as the signed link; the answer names the objectPath a generation takes.
    const oneRequest = (viaForm: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
      const user = requireUser(request);
      return closingOnError(request, reply, () => receive(request, { userId: user.id }, viaForm));
    };
    const oneRequestOptions = {
      config: {
        tokenScope: 'uploads:write' as const,
        rateLimit: { max: 30, timeWindow: '1 minute', keyGenerator: rateLimitKey },
      },
      schema: { response: { 200: uploadCompleteSchema } },
    };
    raw.put('/api/uploads', oneRequestOptions, oneRequest(false));
    raw.post('/api/uploads', oneRequestOptions, oneRequest(true));
  });
};
