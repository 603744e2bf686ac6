import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { providerCostMicroUsd } from './catalogue';
import { createEngineRegistry } from '.';

// MODELS_CONFIG's `providerCost` (what the provider bills, for the admin cost view) and the daily
// spend cap's setting: both read once at start, refused with a sentence naming the problem.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'provider-cost-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = (env: Record<string, string>) =>
  loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, SESSION_SECRET: 'x'.repeat(40), ...env });
function registryWith(models: unknown) {
  const file = path.join(dir, `models-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ models }));
  return createEngineRegistry(config({ MODELS_CONFIG: file }));
}

describe('a provider cost', () => {
  it('is recorded in millionths of a dollar, per video or per second of the asked duration', () => {
    expect(providerCostMicroUsd({ usd: 0.4, per: 'video' }, 8)).toBe(400_000);
    expect(providerCostMicroUsd({ usd: 0.28, per: 'second' }, 5)).toBe(1_400_000);
    expect(providerCostMicroUsd({ usd: 0.000001, per: 'second' }, 10)).toBe(10);
    expect(providerCostMicroUsd(undefined, 8)).toBeNull();
  });

  it('is read from MODELS_CONFIG (per video unless it says per second); a model without one has none', () => {
    const registry = registryWith({
      'fal-veo3': { providerCost: { usd: 3.2 } },
      'fal-kling-2.1': { credits: 0.5, per: 'second', providerCost: { usd: 0.28, per: 'second' } },
    });
    expect(registry.providerCost('fal-veo3')).toEqual({ usd: 3.2, per: 'video' });
    expect(registry.providerCost('fal-kling-2.1')).toEqual({ usd: 0.28, per: 'second' });
    expect(registry.providerCost('local')).toBeUndefined();
    expect(registry.providerCost('constructor')).toBeUndefined();
  });

  it('refuses a cost that is not US dollars per video or second, naming the field', () => {
    const refused = (cost: unknown) => () => registryWith({ 'fal-veo3': { providerCost: cost } });
    expect(refused({ usd: -1 })).toThrow(/models\.fal-veo3\.providerCost\.usd cannot be negative/);
    expect(refused({ usd: 0.1234567 })).toThrow(/providerCost\.usd must have at most 6 decimals/);
    expect(refused({ usd: '0.4' })).toThrow(/providerCost\.usd must be a number of US dollars/);
    expect(refused({ usd: 0.4, per: 'minute' })).toThrow(/providerCost\.per must be "video" or "second"/);
    expect(refused({ usd: 0.4, currency: 'EUR' })).toThrow(/MODELS_CONFIG/);
    expect(refused({ usd: 5000 })).toThrow(/must be at most 1000/);
  });
});

describe('DAILY_SPEND_CAP_CREDITS', () => {
  it('is off when unset or 0, and in hundredths otherwise', () => {
    expect(config({}).operations.dailySpendCapHundredths).toBeNull();
    expect(config({ DAILY_SPEND_CAP_CREDITS: '0' }).operations.dailySpendCapHundredths).toBeNull();
    expect(config({ DAILY_SPEND_CAP_CREDITS: ' 12.5 ' }).operations.dailySpendCapHundredths).toBe(1250);
  });

  it('refuses what is not a number of credits with at most two decimals', () => {
    for (const value of ['-1', 'ten', '1.005', '1e3']) {
      expect(() => config({ DAILY_SPEND_CAP_CREDITS: value }), value).toThrow(ConfigError);
      expect(() => config({ DAILY_SPEND_CAP_CREDITS: value }), value).toThrow(/DAILY_SPEND_CAP_CREDITS/);
    }
  });
});
