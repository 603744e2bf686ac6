import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { generationRecordSchema, keepVideoSchema } from '../../../shared/generations';
import { DEFAULT_VIDEO_RETENTION_HOURS, retentionInWords } from '../../../shared/retention';
import type { ServiceContext } from '../../context';
import { requireUser } from '../../http/guards';
import { idParams, uuidOr404 } from '../../http/path-ids';
import { apiDoc, NOT_FOUND_VIDEO, VIDEO_RECORD } from '../../http/openapi-words';
import { setVideoKept } from './keep.service';

/** Keep: a video the sweeper never deletes, for users KEEP_VIDEOS_FOR allows (docs/product-rules.md, Retention). */
export const keepRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/video-generation/:id/keep',
    {
      config: {
        tokenScope: 'videos:write',
        doc: apiDoc('Videos', {
          summary: 'Keep a video, or stop keeping it',
          operationId: 'keepVideo',
          description:
            'A kept video has no expiry and is never deleted by the retention sweep; no longer kept, it expires VIDEO_RETENTION_HOURS from now. Keeping is for the accounts KEEP_VIDEOS_FOR allows; anyone may stop keeping their own video.',
          requestExample: { keep: true },
          example: { ...VIDEO_RECORD, kept: true, expiresAt: null },
          errors: [
            NOT_FOUND_VIDEO,
            {
              status: 403,
              code: 'keep_not_allowed',
              message: `Keeping videos is not available on your account. Videos are deleted ${retentionInWords(DEFAULT_VIDEO_RETENTION_HOURS)} after they are made, so download the ones you want.`,
            },
            { status: 409, code: 'not_finished', message: 'This video is not finished yet. Keep it once it is ready.' },
            {
              status: 400,
              code: 'video_expired',
              message: `This video has expired (videos are kept for ${retentionInWords(DEFAULT_VIDEO_RETENTION_HOURS)}), so it can no longer be kept.`,
            },
          ],
        }),
      },
      schema: { params: idParams, body: keepVideoSchema, response: { 200: generationRecordSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      return setVideoKept(ctx, user, uuidOr404(request.params.id, NOT_FOUND_VIDEO), request.body.keep);
    },
  );
};
