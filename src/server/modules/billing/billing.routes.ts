import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { generationStatusSchema } from '../../../shared/money/plans';
import type { Db } from '../../db/client';
import { requireUser } from '../../http/guards';
import { generationStatus } from './allowances.service';

export const billingRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date }> = async (app, { db, now }) => {
  app.get('/api/user/generation-status', { schema: { response: { 200: generationStatusSchema } } }, async (request) => {
    return generationStatus(db, requireUser(request), now());
  });
};
