import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config';
import { notFound } from '../lib/app-error';

const SUPPORT_EMAIL_PLACEHOLDER = '__SUPPORT_EMAIL__';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Serves the built client: hashed assets cached for a year, index.html never cached, and
 * index.html for every client route. Unknown /api paths are JSON 404s.
 */
export async function registerClientFiles(app: FastifyInstance, config: Config): Promise<void> {
  const indexFile = path.join(config.clientDir, 'index.html');
  const hasClient = existsSync(indexFile);
  const indexHtml = hasClient
    ? readFileSync(indexFile, 'utf8').replaceAll(SUPPORT_EMAIL_PLACEHOLDER, escapeAttribute(config.supportEmail))
    : null;

  if (hasClient) {
    await app.register(fastifyStatic, {
      root: config.clientDir,
      index: false,
      wildcard: true,
      // The build manifest (.vite/) is for benchmarks, not for browsers.
      dotfiles: 'ignore',
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const sendAppShell = (reply: FastifyReply) => {
    if (!indexHtml) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web client is not built. Run `npm run build`, then start the server again.');
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  };

  // Explicit, so the static plugin's wildcard never answers "/" as a directory.
  app.get('/', async (_request, reply) => sendAppShell(reply));

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/');
    // A missing hashed asset is a real 404, not the app shell.
    if (!wantsPage || pathname === '/api' || pathname.startsWith('/assets/')) {
      throw notFound(`There is no ${request.method} ${pathname} here.`);
    }
    return sendAppShell(reply);
  });
}
