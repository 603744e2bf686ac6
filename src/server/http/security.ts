import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerOptions } from 'node:http';
import type { Config } from '../config';
import { forbidden } from '../lib/app-error';
import { bearerCredential } from './guards';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes called by other servers (payment webhooks) are not subject to the same-origin check. */
    allowCrossSite?: boolean;
  }
}

/** Origins the browser talks to for S3 uploads (presigned POST) and playback (presigned GET). */
export function storageOrigins(config: Config): string[] {
  const s3 = config.s3;
  if (!s3) return [];
  if (s3.endpoint) {
    const endpoint = new URL(s3.endpoint);
    return s3.forcePathStyle
      ? [endpoint.origin]
      : [`${endpoint.protocol}//${s3.bucket}.${endpoint.host}`, endpoint.origin];
  }
  return [`https://${s3.bucket}.s3.${s3.region}.amazonaws.com`, `https://s3.${s3.region}.amazonaws.com`];
}

/** Fastify's server options against slow and idle clients (slowloris), from HTTP_*_TIMEOUT_SECONDS. */
export function serverTimeouts(config: Config): {
  connectionTimeout: number;
  keepAliveTimeout: number;
  requestTimeout: number;
  http: ServerOptions;
} {
  const { headersTimeoutMs, requestTimeoutMs, idleTimeoutMs, keepAliveTimeoutMs } = config.http;
  return {
    // Socket inactivity: nothing read or written for this long (a stalled upload, a silent client).
    connectionTimeout: idleTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    // Receiving a whole request. Fastify 5 has no per-route value, so it stays long enough for the
    // largest upload on a slow line; the upload route enforces its own minimum transfer rate.
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // Node checks both timeouts on this interval (default 30 s, which would double a 15 s limit).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.round(headersTimeoutMs / 4))),
    },
  };
}

/** Security headers, with a content security policy that already allows Stripe.js for the payment forms. */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const storage = storageOrigins(config);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        scriptSrc: ["'self'", 'https://js.stripe.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https://*.stripe.com', ...storage],
        fontSrc: ["'self'", 'data:'],
        mediaSrc: ["'self'", 'blob:', ...storage],
        connectSrc: ["'self'", 'https://api.stripe.com', ...storage],
        frameSrc: ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
        workerSrc: ["'self'", 'blob:'],
        upgradeInsecureRequests: config.secureCookies ? [] : null,
      },
    },
    // Stripe's iframes need to be embeddable without COEP.
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.secureCookies ? { maxAge: 15_552_000, includeSubDomains: true } : false,
  });

  // API answers are personal (the session's user, their videos, their credits): no browser or
  // shared cache may keep them. A route that decides its own caching (signed media) sets its header.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  const publicOrigin = new URL(config.publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config.allowCrossSite) return;
    // A bearer request is authenticated by its Authorization header alone, never by a cookie (the
    // auth hook ignores cookies when the header is there). A browser never adds that header by
    // itself, and another site's page can only set it through a CORS preflight, which this server
    // never grants: a forged cross-site request cannot carry the victim's token, so it has nothing
    // to ride on. The check protects cookies, which browsers do attach by themselves.
    if (bearerCredential(request) !== null) return;
    if (isCrossSite(request, publicOrigin)) {
      throw forbidden('Cross-site requests are not allowed.', 'cross_site_request');
    }
  });
}

/** A state-changing request is refused when the browser says it comes from another site. */
function isCrossSite(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  if (origin && origin !== 'null') {
    const ownOrigin = `${request.protocol}://${request.host}`;
    return origin !== publicOrigin && origin !== ownOrigin;
  }
  if (origin === 'null') return true;
  return request.headers['sec-fetch-site'] === 'cross-site';
}
