import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { RetentionConfig } from '../config-retention';
import { ASSIST_PLACEHOLDER, PAYMENTS_PLACEHOLDER, PREVIEW_NOTE_PLACEHOLDER } from '../../shared/installation';
import { isPageAddress } from '../../shared/pages';
import { retentionInWords } from '../../shared/retention';
import { notFound } from '../lib/app-error';

/**
 * What the built pages carry in place of the operator's settings, filled in when each page is read
 * and compressed: the support address (once, at start), and the installation's state as it is now
 * (pageVariants): the retention (src/client/lib/retention.ts reads the meta tags; the prerendered
 * landing page says the retention in words), the preview note and who answers AI Enhance.
 */
function pagePlaceholders(config: Config): Record<string, string> {
  return { __SUPPORT_EMAIL__: config.supportEmail };
}

function statePlaceholders(state: InstallationState): Record<string, string> {
  return {
    __VIDEO_RETENTION_HOURS__: String(state.retention.videoHours),
    __KEEP_VIDEOS_FOR__: state.retention.keepFor.join(','),
    __VIDEO_RETENTION_WORDS__: retentionInWords(state.retention.videoHours),
    [PREVIEW_NOTE_PLACEHOLDER]: state.previewNote,
    [ASSIST_PLACEHOLDER]: state.assist,
    [PAYMENTS_PLACEHOLDER]: state.payments ? 'on' : 'off',
  };
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A page in each encoding, compressed once at start (it carries the operator's settings). */
interface AppShellBodies {
  identity: string;
  br: Buffer;
  gzip: Buffer;
}

function compressAppShell(file: string, placeholders: Record<string, string>): AppShellBodies {
  let html = readFileSync(file, 'utf8');
  for (const [placeholder, value] of Object.entries(placeholders))
    html = html.replaceAll(placeholder, escapeAttribute(value));
  return {
    identity: html,
    br: brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(html, { level: 9 }),
  };
}

/** The best encoding the request accepts ('br' before 'gzip'); q=0 refuses one. */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

interface ClientFilesOptions {
  /** Whether a request carries a session cookie: one without is sent the prerendered landing page for "/". */
  hasSessionCookie: (request: FastifyRequest) => boolean;
  /** What the installation can do now; it changes while the server runs (an administrator connects a model). */
  installation: () => InstallationState;
}

/** What every page says of the installation, filled in as each page is sent. */
export interface InstallationState {
  /** The preview note ('' when a real model is connected). */
  previewNote: string;
  /** Who answers AI Enhance and image analysis (src/server/ai/text-model.ts): a model, or the local rules. */
  assist: 'model' | 'local';
  /** How long videos are kept and who may keep one (the environment's, or the settings page's). */
  retention: RetentionConfig;
  /** Whether this server takes payments (Stripe's keys, from the environment or the settings page). */
  payments: boolean;
}

/**
 * A page as sent: its file with the operator's settings filled in, compressed once per installation
 * state (with or without the preview note, assist by a model or local, the retention), so a model
 * connected or lost, or a rule changed, changes what the next page says. The last few states are
 * kept: an administrator trying retentions cannot grow the map without bound.
 */
const PAGE_STATES_KEPT = 8;

function pageVariants(
  file: string,
  placeholders: Record<string, string>,
): (state: InstallationState) => AppShellBodies {
  const byState = new Map<string, AppShellBodies>();
  return (state) => {
    const key = JSON.stringify(state);
    let page = byState.get(key);
    if (!page) {
      page = compressAppShell(file, { ...placeholders, ...statePlaceholders(state) });
      if (byState.size >= PAGE_STATES_KEPT) byState.delete(byState.keys().next().value ?? key);
      byState.set(key, page);
    }
    return page;
  };
}

/**
 * Serves the built client: hashed assets cached for a year, index.html, sw.js and the manifest
 * never cached, and index.html for every client route (with 404 for an address no page has). Files are sent precompressed (brotli or
 * gzip, written by scripts/precompress.mjs) when the request accepts it, with Vary: Accept-Encoding.
 * "/" without a session cookie is the prerendered landing page (Vary: Cookie). Unknown /api paths
 * are JSON 404s.
 */
export async function registerClientFiles(
  app: FastifyInstance,
  config: Config,
  { hasSessionCookie, installation }: ClientFilesOptions,
): Promise<void> {
  const indexFile = path.join(config.clientDir, 'index.html');
  const landingFile = path.join(config.clientDir, '.prerender', 'landing.html');
  const hasClient = existsSync(indexFile);
  const placeholders = pagePlaceholders(config);
  const indexPage = hasClient ? pageVariants(indexFile, placeholders) : null;
  // The landing page rendered at build time (scripts/prerender-landing.mjs), for visitors with no session.
  const landingPage = hasClient && existsSync(landingFile) ? pageVariants(landingFile, placeholders) : null;
  // The current state's pages; the first are compressed at start, not on the first visitor's request.
  const indexHtml = () => indexPage?.(installation()) ?? null;
  const landingHtml = () => landingPage?.(installation()) ?? null;
  indexHtml();
  landingHtml();

  if (hasClient) {
    await app.register(fastifyStatic, {
      root: config.clientDir,
      index: false,
      wildcard: true,
      // The build manifest (.vite/) is for benchmarks, not for browsers.
      dotfiles: 'ignore',
      cacheControl: false,
      // foo.js.br / foo.js.gz beside foo.js; @fastify/static sets Content-Encoding and Vary.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const sendPage = (request: FastifyRequest, reply: FastifyReply, page: AppShellBodies | null, vary: string) => {
    if (!page) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web client is not built. Run `npm run build`, then start the server again.');
    }
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', vary);
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (!encoding) return reply.send(page.identity);
    return reply.header('content-encoding', encoding).send(page[encoding]);
  };
  const sendAppShell = (request: FastifyRequest, reply: FastifyReply) =>
    sendPage(request, reply, indexHtml(), 'Accept-Encoding');

  // Explicit, so the static plugin's wildcard never answers "/" as a directory, nor /index.html
  // (which the service worker precaches as the shell) without the support address filled in.
  // "/" is the landing page, painted before any script, for a browser without a session cookie;
  // with one it is the app shell, which shows the generator to a signed-in user.
  app.get('/', async (request, reply) =>
    landingPage && !hasSessionCookie(request)
      ? sendPage(request, reply, landingHtml(), 'Accept-Encoding, Cookie')
      : sendPage(request, reply, indexHtml(), landingPage ? 'Accept-Encoding, Cookie' : 'Accept-Encoding'),
  );
  app.get('/index.html', async (request, reply) => sendAppShell(request, reply));

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/');
    // A missing hashed asset is a real 404, not the app shell.
    if (!wantsPage || pathname === '/api' || pathname.startsWith('/assets/')) {
      throw notFound(`There is no ${request.method} ${pathname} here.`);
    }
    // Any other address is the app shell too (its "not found" page), but answered as what it is.
    if (!isPageAddress(pathname)) reply.status(404);
    return sendAppShell(request, reply);
  });
}
