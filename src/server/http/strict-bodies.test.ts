import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { injectJson, type TestApp } from '../../../tests/support/app';
import { createTestAppSeeingRoutes } from '../../../tests/support/routes';
import { createUser, signIn } from '../../../tests/support/factories';

/**
 * Every JSON body a route takes refuses fields it does not know (decision 025): an integrator who
 * misspells `crossfade` as `crossfadeSeconds` gets a 400 naming it, not a video made without it and
 * charged. Checked on the schemas themselves, so a new route with a loose object fails here.
 */
const bodies = new Map<string, z.ZodType>();

interface ZodDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

/** The paths ("settings", "keys") of objects in `schema` that let unknown fields through. */
function looseObjects(schema: z.ZodType, where: string, seen = new Set<z.ZodType>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = defOf(schema);
  const inner = (next: z.ZodType | undefined, path = where) => (next ? looseObjects(next, path, seen) : []);
  switch (def.type) {
    case 'object': {
      const strict = def.catchall !== undefined && defOf(def.catchall).type === 'never';
      return [
        ...(strict ? [] : [where || '(the body)']),
        ...Object.entries(def.shape ?? {}).flatMap(([key, value]) => inner(value, where ? `${where}.${key}` : key)),
      ];
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return inner(def.innerType);
    case 'pipe':
      return [...inner(def.in), ...inner(def.out)];
    case 'union':
      return (def.options ?? []).flatMap((option) => inner(option));
    case 'intersection':
      return [...inner(def.left), ...inner(def.right)];
    case 'array':
      return inner(def.element, `${where}[]`);
    case 'record':
      return inner(def.valueType, `${where}{}`);
    case 'lazy':
      return inner(def.getter?.());
    default:
      return [];
  }
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestAppSeeingRoutes((route) => {
    const body = (route.schema as { body?: z.ZodType } | undefined)?.body;
    if (body) for (const method of [route.method].flat()) bodies.set(`${method} ${route.url}`, body);
  });
});
afterAll(async () => t?.close());

describe('request bodies', () => {
  it('refuse unknown fields in every JSON body a route takes, at every depth', () => {
    expect(bodies.size).toBeGreaterThan(30);
    const loose = [...bodies].flatMap(([route, schema]) => looseObjects(schema, '').map((path) => `${route}: ${path}`));
    expect(loose).toEqual([]);
  });

  it('answer 400 naming the unknown field, and make nothing', async () => {
    const user = await createUser(t.db, { creditsHundredths: 1000 });
    const cookie = await signIn(t.app, user);
    const response = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt: 'A lighthouse at dusk', duration: 4, crossfadeSeconds: 0.5 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'unknown_fields',
      message: 'body: "crossfadeSeconds" is not a field this request takes.',
    });
    const listed = await injectJson(t.app, 'GET', '/api/video-generation', { cookie });
    expect(listed.json()).toEqual([]);
  });
});
