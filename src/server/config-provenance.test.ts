import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { provenanceEnv, readProvenanceConfig } from './config-provenance';
import { makeInstallationIdentity } from './provenance/identity';
import { z } from 'zod';

const parse = (env: Record<string, string>) => readProvenanceConfig(z.object(provenanceEnv).parse(env));

describe('C2PA_* settings', () => {
  it("takes the operator's chain and key, and refuses a half setting or a key that is not the certificate's", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-c2pa-config-'));
    const one = await makeInstallationIdentity('https://a.example');
    const other = await makeInstallationIdentity('https://b.example');
    const file = (name: string, text: string) => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const chain = file('chain.pem', one.certificateChainPem);
    const key = file('key.pem', one.privateKeyPem);
    const wrongKey = file('other-key.pem', other.privateKeyPem);

    expect(parse({})).toEqual({ operatorIdentity: null, includePrompt: false, visibleLabel: false });
    expect(parse({ VISIBLE_AI_LABEL: 'true' }).visibleLabel).toBe(true);
    expect(parse({ C2PA_CERTIFICATE_FILE: chain, C2PA_PRIVATE_KEY_FILE: key, C2PA_INCLUDE_PROMPT: 'true' })).toEqual({
      operatorIdentity: one,
      includePrompt: true,
      visibleLabel: false,
    });
    expect(() => parse({ C2PA_CERTIFICATE_FILE: chain })).toThrow('set both or neither');
    expect(() => parse({ C2PA_CERTIFICATE_FILE: chain, C2PA_PRIVATE_KEY_FILE: wrongKey })).toThrow(
      'is not the key of the first certificate',
    );
    expect(() => z.object(provenanceEnv).parse({ C2PA_INCLUDE_PROMPT: 'yes' })).toThrow('must be true or false');
  });
});
