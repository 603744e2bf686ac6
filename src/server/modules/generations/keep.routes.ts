import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { generationRecordSchema, keepVideoSchema } from '../../../shared/generations';
import type { ServiceContext } from '../../context';
import { requireUser } from '../../http/guards';
import { notFound } from '../../lib/app-error';
import { setVideoKept } from './keep.service';

const idParams = z.object({ id: z.string().max(100) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Keep: a video the sweeper never deletes, for users KEEP_VIDEOS_FOR allows (docs/product-rules.md, Retention). */
export const keepRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/video-generation/:id/keep',
    {
      config: { tokenScope: 'videos:write' },
      schema: { params: idParams, body: keepVideoSchema, response: { 200: generationRecordSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      // Not a uuid cannot be anyone's video: the same 404 as someone else's.
      if (!UUID.test(request.params.id))
        throw notFound('This video was not found. It may have been deleted already.', 'generation_not_found');
      return setVideoKept(ctx, user, request.params.id, request.body.keep);
    },
  );
};
