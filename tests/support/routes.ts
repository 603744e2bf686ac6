import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { createTestApp, type TestApp } from './app';

/**
 * A test app, with `seen` called for every route as it is registered (its config and schemas as the
 * routes file gave them). Fastify announces each new instance on the `fastify.initialization`
 * channel before anything is registered on it, so nothing in the app needs to know about tests.
 */
export async function createTestAppSeeingRoutes(
  seen: (route: RouteOptions) => void,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const listen = (message: unknown) => (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', seen);
  subscribe('fastify.initialization', listen);
  try {
    return await createTestApp(env);
  } finally {
    unsubscribe('fastify.initialization', listen);
  }
}
