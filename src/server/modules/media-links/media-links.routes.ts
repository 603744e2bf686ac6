import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceContext } from '../../context';
import { apiDoc } from '../../http/openapi-words';
import { serveObject } from '../../http/serve-object';
import { verifyMediaUrl } from '../../storage/media-links';

/**
 * Signed media links (videos, posters, and the inputs handed to providers): the link itself is
 * the capability, so no session is needed and a shared link works until the media expires.
 */
export const mediaLinksRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/api/media/:id',
    {
      config: {
        tokenScope: 'videos:read',
        doc: apiDoc('Media', {
          summary: 'Download a video, poster or input by its signed link',
          operationId: 'downloadMedia',
          description:
            'The links in `outputVideoUrl` and `posterUrl`. The signature (`exp`, `sig`) is the permission: a shared link works until it expires, with or without a token.',
          public: true,
          servesFile: true,
          errors: [
            { status: 403, code: 'media_link_invalid', message: 'This link is not valid.' },
            { status: 404, code: 'media_expired', message: 'This video has expired and was deleted.' },
          ],
        }),
      },
      schema: {
        params: z.object({ id: z.string().max(400) }),
        querystring: z.object({
          type: z.string().max(100).optional(),
          exp: z.string().max(20).optional(),
          sig: z.string().max(100).optional(),
        }),
      },
    },
    async (request, reply) => {
      const object = verifyMediaUrl(ctx.secret, { id: request.params.id, ...request.query }, ctx.now());
      return serveObject(request, reply, ctx.storage, {
        key: object.key,
        contentType: object.contentType,
        cacheSeconds: 3600,
      });
    },
  );
};
