/** A JSON schema or a part of the document, as the document builder handles it. */
export type Json = Record<string, unknown>;

/** A value that fits a JSON schema, for routes without a hand-written example. */
export function sampleOf(schema: unknown, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 8) return null;
  const s = schema as Json;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0] as unknown;
  if ('example' in s) return s.example;
  if ('const' in s) return s.const;
  if ('default' in s && s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0] as unknown;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options: unknown = s[key];
    if (Array.isArray(options)) {
      const useful: unknown = options.find((o: Json | null) => o?.type !== 'null') ?? options[0];
      return sampleOf(useful, depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, sampleOf(v, depth + 1)]));
    }
    case 'array':
      return s.items ? [sampleOf(s.items, depth + 1)] : [];
    case 'string':
      return sampleString(s);
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number'
        ? s.minimum
        : typeof s.exclusiveMinimum === 'number'
          ? s.exclusiveMinimum + 1
          : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}

function sampleString(s: Json): string {
  switch (s.format) {
    case 'date-time':
      return '2026-11-25T10:00:00.000Z';
    case 'uuid':
      return '6f1c0b7e-3a52-4d8e-9c1a-2b7f5d9e4a10';
    case 'email':
      return 'ada@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/';
    default: {
      const min = typeof s.minLength === 'number' ? s.minLength : 0;
      return 'text'.padEnd(min, 'x');
    }
  }
}
