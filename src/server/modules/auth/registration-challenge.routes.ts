import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registrationChallengeSchema } from '../../../shared/accounts';
import type { ServiceContext } from '../../context';
import { apiDoc } from '../../http/openapi-words';
import { issueRegistrationChallenge } from './registration-challenge';

/** GET /api/auth/challenge: the proof of work a registration must solve when REGISTRATION_CHALLENGE is on. */
export const registrationChallengeRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/api/auth/challenge',
    {
      config: {
        doc: apiDoc('Sign-in', {
          summary: 'A registration proof-of-work challenge',
          public: true,
          errors: [
            { status: 404, code: 'challenge_off', message: 'Registration asks for no challenge on this server.' },
          ],
        }),
      },
      schema: { response: { 200: registrationChallengeSchema } },
    },
    async (_request, reply) => {
      // Each visit gets its own challenge; a cached one would be a replay waiting to be refused.
      reply.header('Cache-Control', 'no-store');
      return issueRegistrationChallenge(ctx);
    },
  );
};
