import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { notFound } from '../lib/app-error';

const SUPPORT_EMAIL_PLACEHOLDER = '__SUPPORT_EMAIL__';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** index.html in each encoding, compressed once at start (it carries the configured support address). */
interface AppShellBodies {
  identity: string;
  br: Buffer;
  gzip: Buffer;
}

function compressAppShell(html: string): AppShellBodies {
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

/**
 * Serves the built client: hashed assets cached for a year, index.html, sw.js and the manifest
 * never cached, and index.html for every client route. Files are sent precompressed (brotli or
 * gzip, written by scripts/precompress.mjs) when the request accepts it, with Vary: Accept-Encoding.
 * Unknown /api paths are JSON 404s.
 */
export async function registerClientFiles(app: FastifyInstance, config: Config): Promise<void> {
  const indexFile = path.join(config.clientDir, 'index.html');
  const hasClient = existsSync(indexFile);
  const indexHtml = hasClient
    ? compressAppShell(readFileSync(indexFile, 'utf8').replaceAll(SUPPORT_EMAIL_PLACEHOLDER, escapeAttribute(config.supportEmail)))
    : null;

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

  const sendAppShell = (request: FastifyRequest, reply: FastifyReply) => {
    if (!indexHtml) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web client is not built. Run `npm run build`, then start the server again.');
    }
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'Accept-Encoding');
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (!encoding) return reply.send(indexHtml.identity);
    return reply.header('content-encoding', encoding).send(indexHtml[encoding]);
  };

  // Explicit, so the static plugin's wildcard never answers "/" as a directory, nor /index.html
  // (which the service worker precaches as the shell) without the support address filled in.
  app.get('/', async (request, reply) => sendAppShell(request, reply));
  app.get('/index.html', async (request, reply) => sendAppShell(request, reply));

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/');
    // A missing hashed asset is a real 404, not the app shell.
    if (!wantsPage || pathname === '/api' || pathname.startsWith('/assets/')) {
      throw notFound(`There is no ${request.method} ${pathname} here.`);
    }
    return sendAppShell(request, reply);
  });
}
