import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { adminUserListQuerySchema, adminUserUpdateSchema } from './admin';
import { analyzeImageRequestSchema, enhanceTextRequestSchema } from './ai';
import { loginSchema, registerSchema } from './auth';
import { errorReportSchema } from './errors';
import { advancedSettingsSchema, createGenerationSchema, parseAdvancedSettings } from './generations';
import { checkoutSuccessRequestSchema, confirmPaymentRequestSchema, fulfillRequestSchema } from './money/payments';
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters, toFieldText } from './text';

describe('hasControlCharacters', () => {
  it('finds every C0 control character and DEL in single-line text, tabs and line breaks included', () => {
    for (let code = 0; code < 0x20; code += 1)
      expect(hasControlCharacters(`a${String.fromCharCode(code)}b`, 'single-line')).toBe(true);
    expect(hasControlCharacters('a\u007Fb', 'single-line')).toBe(true);
  });

  it('lets multi-line text keep tab, line feed and carriage return, and nothing else below space', () => {
    expect(hasControlCharacters('one\r\n\ttwo\nthree', 'multi-line')).toBe(false);
    for (const character of ['\u0000', '\u0007', '\u000B', '\u000C', '\u001B', '\u007F']) {
      expect(hasControlCharacters(`a${character}b`, 'multi-line')).toBe(true);
    }
  });

  it('leaves ordinary text alone, in any script', () => {
    for (const text of ['', 'Zoë Ñandú', '東京の夜 🌃', 'a\u00A0b', "O'Brien-Smith <x@y.z>"]) {
      expect(hasControlCharacters(text, 'single-line')).toBe(false);
    }
  });
});

/** Every request schema in shared, a valid input, and which of its text fields are multi-line. */
const REQUEST_SCHEMAS: { name: string; schema: z.ZodObject; valid: Record<string, unknown>; multiLine: string[] }[] = [
  {
    name: 'register',
    schema: registerSchema,
    valid: { email: 'ada@example.com', password: 'a long password', firstName: 'Ada', lastName: 'Lovelace' },
    multiLine: [],
  },
  {
    name: 'login',
    schema: loginSchema,
    valid: { email: 'ada@example.com', password: 'a long password' },
    multiLine: [],
  },
  { name: 'admin list query', schema: adminUserListQuerySchema, valid: { q: 'ada', cursor: 'abc' }, multiLine: [] },
  {
    name: 'admin edit',
    schema: adminUserUpdateSchema,
    valid: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      availableCredits: 1,
      totalCreditsUsed: 0,
      subscriptionStatus: 'active',
    },
    multiLine: [],
  },
  {
    name: 'enhance',
    schema: enhanceTextRequestSchema,
    valid: { userPrompt: 'A cat', style: 'cinematic', duration: 'medium', mood: 'calm' },
    multiLine: ['userPrompt'],
  },
  {
    name: 'analyze',
    schema: analyzeImageRequestSchema,
    valid: { imageUrl: '/objects/uploads/x', analysisType: 'comprehensive' },
    multiLine: [],
  },
  {
    name: 'generate',
    schema: createGenerationSchema,
    valid: {
      prompt: 'A cat',
      jsonPrompt: '{}',
      imageFile: '/objects/uploads/a',
      videoFile: '/objects/uploads/b',
      audioFile: '/objects/uploads/c',
    },
    multiLine: ['prompt', 'jsonPrompt'],
  },
  {
    name: 'advanced settings',
    schema: advancedSettingsSchema,
    valid: { negativePrompt: 'blurry' },
    multiLine: ['negativePrompt'],
  },
  {
    name: 'error report',
    schema: errorReportSchema,
    valid: {
      message: 'Boom',
      stack: 'Error: Boom',
      componentStack: 'at App',
      url: 'http://localhost/',
      userAgent: 'Mozilla/5.0',
      timestamp: '2026-01-01T00:00:00Z',
      errorId: 'err_1_abc',
    },
    multiLine: ['message', 'stack', 'componentStack'],
  },
  { name: 'checkout success', schema: checkoutSuccessRequestSchema, valid: { sessionId: 'cs_1' }, multiLine: [] },
  { name: 'fulfil', schema: fulfillRequestSchema, valid: { paymentIntentId: 'pi_1', credits: 1 }, multiLine: [] },
  { name: 'confirm', schema: confirmPaymentRequestSchema, valid: { paymentIntentId: 'pi_1' }, multiLine: [] },
];

/** Text fields with a format or a list of values of their own, which refuses any other text first. */
const FORMATTED = ['timestamp', 'errorId', 'subscriptionStatus'];

describe('request schemas', () => {
  for (const { name, schema, valid, multiLine } of REQUEST_SCHEMAS) {
    const textFields = Object.entries(valid)
      .filter(([, value]) => typeof value === 'string')
      .map(([field]) => field)
      .filter((field) => !FORMATTED.includes(field));

    it(`${name}: accepts the valid input, refuses a NUL in every text field with a sentence naming it`, () => {
      expect(schema.safeParse(valid).success).toBe(true);
      for (const field of textFields) {
        const result = schema.safeParse({ ...valid, [field]: `ab\u0000cd@example.com` });
        expect(result.success, field).toBe(false);
        expect(result.error?.issues, field).toContainEqual(
          expect.objectContaining({ path: [field], message: CONTROL_CHARACTERS_MESSAGE }),
        );
      }
    });

    it(`${name}: line breaks only where text is multi-line`, () => {
      for (const field of textFields) {
        const result = schema.safeParse({ ...valid, [field]: `{"a":\n\t1}` });
        const refusedForControl =
          result.error?.issues.some((issue) => issue.message === CONTROL_CHARACTERS_MESSAGE) ?? false;
        expect(refusedForControl, field).toBe(!multiLine.includes(field));
      }
    });
  }

  it('refuses a NUL escaped inside the advanced settings JSON, naming the key', () => {
    expect(parseAdvancedSettings('{"negativePrompt":"a\\u0000b"}')).toEqual({
      ok: false,
      message: `Advanced settings: negativePrompt ${CONTROL_CHARACTERS_MESSAGE}`,
    });
  });

  it('takes error report timestamps from 2000 to 2099 only', () => {
    const report = REQUEST_SCHEMAS.find((s) => s.name === 'error report')?.valid ?? {};
    const parse = (timestamp: string) => errorReportSchema.safeParse({ ...report, timestamp });
    expect(parse('2000-01-01T00:00:00Z').success).toBe(true);
    expect(parse('2099-12-31T23:59:59+01:00').success).toBe(true);
    for (const timestamp of [
      '0000-01-01T00:00:00Z',
      '1999-12-31T23:59:59Z',
      '2100-01-01T00:00:00Z',
      '2000-01-01T00:30:00+01:00',
    ]) {
      expect(parse(timestamp).error?.issues[0]?.message, timestamp).toBe('must be a date from the year 2000 to 2099');
    }
  });
});

describe('toFieldText', () => {
  it('removes what a field refuses and clips, so the result always passes the field', () => {
    const raw = 'Error: \u001b[31mred\u001b[0m\u0000 at line\n\tnext\r\nend';
    const multi = toFieldText(raw, 'multi-line', 100);
    expect(multi).toBe('Error: [31mred[0m at line\n\tnext\r\nend');
    expect(hasControlCharacters(multi, 'multi-line')).toBe(false);
    const single = toFieldText(raw, 'single-line', 100);
    expect(single).toBe('Error: [31mred[0m at line next end');
    expect(hasControlCharacters(single, 'single-line')).toBe(false);
    expect(toFieldText('x'.repeat(50), 'single-line', 10)).toHaveLength(10);
  });
});
