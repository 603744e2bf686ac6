import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { ENV_VARIABLES, readEnv } from './config';
import { SERVER_NODE_FLAGS } from './node-flags';

// The container recipe cannot be built or run here (no Docker): this checks that Dockerfile and
// compose.yaml parse and that the Reelsmith processes in them are configured only with variables
// that config.ts reads (a misspelt name would be ignored silently in production).

const ROOT = path.resolve(import.meta.dirname, '../..');
const known = new Set(ENV_VARIABLES);
const onPostgres = readEnv().TEST_DB === 'postgres';

/** Dockerfile instructions (docs.docker.com/reference/dockerfile), continuation lines joined. */
function dockerfileInstructions(text: string): { keyword: string; args: string }[] {
  const joined = text.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

const DOCKERFILE_KEYWORDS = new Set(
  'FROM RUN CMD LABEL EXPOSE ENV ADD COPY ENTRYPOINT VOLUME USER WORKDIR ARG ONBUILD STOPSIGNAL HEALTHCHECK SHELL'.split(
    ' ',
  ),
);

describe.skipIf(onPostgres)('the container recipe', () => {
  it('Dockerfile: known instructions, npm ci from the lock file, and only variables config.ts reads', () => {
    const instructions = dockerfileInstructions(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
    for (const { keyword } of instructions) expect(DOCKERFILE_KEYWORDS, keyword).toContain(keyword);
    expect(instructions[0]?.keyword).toBe('FROM');
    expect(instructions.some((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args))).toBe(true);
    expect(instructions.some((i) => i.keyword === 'COPY' && i.args.includes('package-lock.json'))).toBe(true);
    const envNames = instructions
      .filter((i) => i.keyword === 'ENV')
      .flatMap((i) => [...i.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=/g)].map((m) => m[1] ?? ''));
    expect(envNames.length).toBeGreaterThan(0);
    expect(envNames.filter((name) => !known.has(name))).toEqual([]);
    for (const i of instructions.filter((i) => ['CMD', 'ENTRYPOINT'].includes(i.keyword)))
      expect(() => JSON.parse(i.args.replace(/^.*?(\[)/, '$1')) as unknown).not.toThrow();
    const cmd = instructions.findLast((i) => i.keyword === 'CMD');
    expect(JSON.parse(cmd?.args ?? '[]')).toEqual(['node', ...SERVER_NODE_FLAGS, 'dist/server/main.js']);
  });

  it("package.json: npm start, serve and worker start the server with every process's Node flags", () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const server = `node ${SERVER_NODE_FLAGS.join(' ')} dist/server/main.js`;
    expect(scripts.start).toBe(`npm run build && ${server}`);
    expect(scripts.serve).toBe(server);
    expect(scripts.worker).toBe(`npm run build:server && ${server} --services=worker`);
  });

  it('compose.yaml: PostgreSQL, MinIO, the web process and scalable workers, configured only with known variables', () => {
    const text = readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8');
    const document = parseDocument(text, { merge: true });
    expect(document.errors).toEqual([]);
    const compose = parse(text, { merge: true }) as {
      services: Record<
        string,
        {
          image?: string;
          build?: unknown;
          command?: string[];
          environment?: Record<string, unknown>;
          env_file?: { path: string; required: boolean }[];
          deploy?: unknown;
        }
      >;
    };
    const services = compose.services;
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(services.minio?.image).toMatch(/^minio\/minio/);
    expect(services.web?.command).toEqual(['node', ...SERVER_NODE_FLAGS, 'dist/server/main.js', '--services=web']);
    expect(services.worker?.command).toEqual([
      'node',
      ...SERVER_NODE_FLAGS,
      'dist/server/main.js',
      '--services=worker',
    ]);
    expect(services.worker?.deploy).toMatchObject({ replicas: expect.any(String) as unknown });
    for (const name of ['web', 'worker']) {
      const environment = services[name]?.environment ?? {};
      expect(services[name]?.build, name).toBe('.');
      expect(
        Object.keys(environment).filter((key) => !known.has(key)),
        name,
      ).toEqual([]);
      expect(String(environment.DATABASE_URL)).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(environment.S3_BUCKET).toBeTruthy();
      // Every setting in .env reaches both processes: the web process and the workers never disagree.
      expect(services[name]?.env_file, name).toEqual([{ path: '.env', required: false }]);
      expect(environment.DATA_DIR, name).toBe('/data');
    }
  });
});
