import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { safetyActionResultSchema, safetyDecisionSchema, safetyOverviewSchema } from '../../../shared/safety';
import type { ServiceContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { requireAdmin } from '../../http/guards';
import { apiDoc, type ErrorAnswer, NOT_ADMIN, USER_NOT_FOUND } from '../../http/openapi-words';
import { takeDownReported } from '../../workflows/take-down';
import { actOnOwner, dismissReport, grantAppeal, type SafetyActor, safetyOverview } from './safety-queue.service';

const reportParams = z.object({ id: z.uuid('must be a report id') });
const userParams = z.object({ id: z.uuid('must be a user id') });

const REPORT_NOT_FOUND: ErrorAnswer = { status: 404, code: 'report_not_found', message: 'This report was not found.' };
const REPORT_DECIDED: ErrorAnswer = {
  status: 409,
  code: 'report_decided',
  message: 'This report was decided already.',
};

/** Suspending an administrator (or warning one up to the suspension policy). */
const ADMIN_NOT_SUSPENDED: ErrorAnswer = {
  status: 409,
  code: 'admin',
  message: 'An administrator cannot be suspended: remove their administrator rights first.',
};

const actorOf = (user: UserRow, log: SafetyActor['log']): SafetyActor => ({
  label: `admin:${user.email}`,
  userId: user.id,
  log,
});

/** The safety queue's API (issue 44): administrators only, every decision taken from the session and audited. */
export const adminSafetyRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  app.get(
    '/api/admin/safety',
    {
      config: {
        doc: apiDoc('Safety', {
          summary: 'The safety queue',
          description:
            "Open reports, appeals and jobs screening held, the nearest 48-hour deadline first, with the owner's history, and the figures (open items, reports per reason, median time to decision).",
          errors: [NOT_ADMIN],
        }),
      },
      schema: { response: { 200: safetyOverviewSchema } },
    },
    async () => safetyOverview(ctx),
  );

  const decision = {
    schema: { params: reportParams, body: safetyDecisionSchema, response: { 200: safetyActionResultSchema } },
  };
  app.post(
    '/api/admin/safety/reports/:id/take-down',
    {
      ...decision,
      config: {
        doc: apiDoc('Safety', {
          summary: 'Take a reported video down',
          description:
            'Removes the video and everything made from it (extends, remixes; variations beside it stay), deletes their files (every link answers 404), remembers their frames by perceptual hash, closes every open report about them, and sends the owner `video.taken_down`. Audited.',
          requestExample: { note: 'Graphic violence.' },
          example: { message: 'Taken down: the video and 1 made from it were removed.' },
          errors: [
            NOT_ADMIN,
            REPORT_NOT_FOUND,
            REPORT_DECIDED,
            {
              status: 409,
              code: 'not_a_report',
              message: 'An appeal is about a video taken down already: dismiss it or grant it.',
            },
          ],
        }),
      },
    },
    async (request) =>
      takeDownReported(ctx, actorOf(requireAdmin(request), request.log), request.params.id, request.body.note),
  );
  app.post(
    '/api/admin/safety/reports/:id/dismiss',
    {
      ...decision,
      config: {
        doc: apiDoc('Safety', {
          summary: 'Dismiss a report or an appeal',
          requestExample: { note: '' },
          example: { message: 'Dismissed.' },
          errors: [NOT_ADMIN, REPORT_NOT_FOUND, REPORT_DECIDED],
        }),
      },
    },
    async (request) =>
      dismissReport(ctx, actorOf(requireAdmin(request), request.log), request.params.id, request.body.note),
  );
  app.post(
    '/api/admin/safety/reports/:id/grant',
    {
      ...decision,
      config: {
        doc: apiDoc('Safety', {
          summary: 'Grant an appeal',
          description:
            "The takedown's strike is taken back and the account can sign in again; removed files stay removed.",
          requestExample: { note: '' },
          example: { message: 'Granted: the strike was taken back and the account can sign in.' },
          errors: [
            NOT_ADMIN,
            REPORT_NOT_FOUND,
            REPORT_DECIDED,
            { status: 409, code: 'not_an_appeal', message: 'Only an appeal can be granted.' },
          ],
        }),
      },
    },
    async (request) =>
      grantAppeal(ctx, actorOf(requireAdmin(request), request.log), request.params.id, request.body.note),
  );

  const owner = { schema: { params: userParams, response: { 200: safetyActionResultSchema } } };
  const ownerWords = {
    warn: apiDoc('Safety', {
      summary: "Warn a video's owner (a strike)",
      description: 'At SAFETY_STRIKES_TO_SUSPEND strikes the account is suspended too.',
      example: { message: 'Warned: strike 1.' },
      errors: [NOT_ADMIN, USER_NOT_FOUND, ADMIN_NOT_SUSPENDED],
    }),
    suspend: apiDoc('Safety', {
      summary: 'Suspend an account',
      description: 'Its sessions end; it cannot sign in, use its tokens or make videos.',
      example: { message: 'Suspended: the account is signed out everywhere.' },
      errors: [NOT_ADMIN, USER_NOT_FOUND, ADMIN_NOT_SUSPENDED],
    }),
    unsuspend: apiDoc('Safety', {
      summary: 'Let a suspended account in again',
      example: { message: 'The account can sign in again.' },
      errors: [NOT_ADMIN, USER_NOT_FOUND],
    }),
  };
  for (const action of ['warn', 'suspend', 'unsuspend'] as const)
    app.post(
      `/api/admin/safety/users/:id/${action}`,
      { ...owner, config: { doc: ownerWords[action] } },
      async (request) => actOnOwner(ctx, actorOf(requireAdmin(request), request.log), request.params.id, action),
    );
};
