import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-config-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('runs with no variables at all: port 3000, PGlite in ./.data, local public URL', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir,
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      secureCookies: false,
    });
    expect(loadConfig({ DATA_DIR: dataDir, PORT: '4123' }).publicUrl).toBe('http://localhost:4123');
  });

  it('generates the session secret once and keeps it in DATA_DIR', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dataDir, 'session-secret'), 'utf8').trim()).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(first);
  });

  it('makes cookies Secure when PUBLIC_URL is https', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: 'https://videos.example.com/' });
    expect(config.secureCookies).toBe(true);
    expect(config.publicUrl).toBe('https://videos.example.com');
  });

  it('takes payments only with both Stripe keys, and points the SDK at STRIPE_API_URL when given', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).stripe).toBeUndefined();
    expect(() => loadConfig({ DATA_DIR: tempDir(), STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(ConfigError);
    expect(() =>
      loadConfig({
        DATA_DIR: tempDir(),
        STRIPE_SECRET_KEY: 'sk_test_1',
        STRIPE_PUBLISHABLE_KEY: 'pk',
        STRIPE_API_URL: 'ftp://x',
      }),
    ).toThrow(/STRIPE_API_URL/);
    const config = loadConfig({
      DATA_DIR: tempDir(),
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_1',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
    });
    expect(config.stripe).toEqual({
      secretKey: 'sk_test_1',
      publishableKey: 'pk_test_1',
      webhookSecret: undefined,
      apiUrl: 'http://127.0.0.1:12111',
    });
  });

  it("keeps videos the spec's 24 hours unless VIDEO_RETENTION_HOURS says otherwise, and lets nobody keep one unless KEEP_VIDEOS_FOR names them", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).retention).toEqual({ videoHours: 24, keepFor: [] });
    expect(
      loadConfig({ DATA_DIR: tempDir(), VIDEO_RETENTION_HOURS: ' 1 ', KEEP_VIDEOS_FOR: 'subscribers, admins,admins' })
        .retention,
    ).toEqual({ videoHours: 1, keepFor: ['subscribers', 'admins'] });
    const problem = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: tempDir(), ...env });
      } catch (error) {
        return (error as ConfigError).problems.join('\n');
      }
      return null;
    };
    expect(problem({ VIDEO_RETENTION_HOURS: '0' })).toBe('VIDEO_RETENTION_HOURS: must be at least 1 hour');
    expect(problem({ VIDEO_RETENTION_HOURS: '1.5' })).toBe('VIDEO_RETENTION_HOURS: must be a whole number of hours');
    expect(problem({ VIDEO_RETENTION_HOURS: 'a day' })).toBe('VIDEO_RETENTION_HOURS: must be a whole number of hours');
    expect(problem({ VIDEO_RETENTION_HOURS: '8761' })).toBe(
      'VIDEO_RETENTION_HOURS: must be at most 8760 hours (a year)',
    );
    expect(problem({ KEEP_VIDEOS_FOR: 'subscribers,vip' })).toBe(
      "KEEP_VIDEOS_FOR: 'vip' is not one of everyone, admins, subscribers, active, trial, premium_unlimited",
    );
  });

  it('uses an OpenAI-compatible server only with LLM_BASE_URL and LLM_MODEL together, the key and time limit optional', () => {
    const problem = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: tempDir(), ...env });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).problems.join('\n');
      }
      return 'no problem';
    };
    expect(loadConfig({ DATA_DIR: tempDir(), LLM_BASE_URL: '', LLM_MODEL: ' ' }).llm).toBeUndefined();
    expect(problem({ LLM_BASE_URL: 'http://localhost:11434/v1' })).toBe(
      'LLM_MODEL: must be set when LLM_BASE_URL is set (the model\'s name on that server, e.g. "llama3.2-vision" for Ollama)',
    );
    expect(problem({ LLM_MODEL: 'llama3.2', LLM_API_KEY: 'sk-1' })).toMatch(
      /^LLM_MODEL and LLM_API_KEY: set LLM_BASE_URL too/,
    );
    expect(problem({ LLM_BASE_URL: 'localhost:11434', LLM_MODEL: 'x' })).toMatch(
      /^LLM_BASE_URL: must be an http\(s\) URL/,
    );
    expect(problem({ LLM_BASE_URL: 'http://localhost:11434/v1', LLM_MODEL: 'x', LLM_TIMEOUT_SECONDS: 'soon' })).toMatch(
      /^LLM_TIMEOUT_SECONDS: /,
    );
    expect(
      loadConfig({ DATA_DIR: tempDir(), LLM_BASE_URL: 'http://localhost:11434/v1', LLM_MODEL: ' llama3.2-vision ' })
        .llm,
    ).toEqual({ baseUrl: 'http://localhost:11434/v1', model: 'llama3.2-vision', apiKey: undefined, timeoutMs: 60_000 });
    expect(
      loadConfig({
        DATA_DIR: tempDir(),
        LLM_BASE_URL: 'https://llm.example.com/v1',
        LLM_MODEL: 'qwen2.5-vl',
        LLM_API_KEY: 'sk-1',
        LLM_TIMEOUT_SECONDS: '180',
      }).llm,
    ).toEqual({ baseUrl: 'https://llm.example.com/v1', model: 'qwen2.5-vl', apiKey: 'sk-1', timeoutMs: 180_000 });
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://nope',
        PUBLIC_URL: 'ftp://x',
        SESSION_SECRET: 'short',
        SUPPORT_EMAIL: 'not-an-email',
        OPERATOR_CONTACT: 'call Bob',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'PUBLIC_URL', 'SESSION_SECRET', 'SUPPORT_EMAIL', 'OPERATOR_CONTACT']) {
      expect(problems).toContain(name);
    }
    expect((error as ConfigError).problems).toHaveLength(6);
  });
});
