import { describe, expect, it } from 'vitest';
import { checkUrlShape, isPublicAddress, resolveTarget } from './address-policy';
import { sendWebhook } from './send';

// The parts of the SSRF check that need no app: address classes, production's https rule, and what
// happens after DNS (the system resolver for localhost; a stand-in resolver, the shape of
// dns.lookup's `all` answer, for a name that resolves somewhere private).

const open = { allowedPrivateHosts: new Set<string>(), requireHttps: false };
const production = { allowedPrivateHosts: new Set(['hooks.intranet:8080']), requireHttps: true };

describe('isPublicAddress', () => {
  it.each([
    ['93.184.216.34', true],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['100.64.0.1', false],
    ['169.254.169.254', false],
    ['::1', false],
    ['::', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::a00:1', false],
    ['2002:a00:1::', false],
    ['2002:808:808::', true],
    ['fd00::1', false],
    ['fe80::1%eth0', false],
    ['ff05::2', false],
    ['2001:db8::1', false],
    ['not-an-ip', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('checkUrlShape', () => {
  it('accepts only https in production, except an allowed intranet host:port', () => {
    expect(() => checkUrlShape('http://93.184.216.34/hooks', production)).toThrow(/https/);
    expect(checkUrlShape('https://93.184.216.34/hooks', production).port).toBe(443);
    expect(checkUrlShape('http://hooks.intranet:8080/x', production).allowedPrivate).toBe(true);
    expect(checkUrlShape('http://HOOKS.intranet.:8080/x', production).allowedPrivate).toBe(true);
    expect(() => checkUrlShape('http://hooks.intranet:8081/x', production)).toThrow(/https/);
    expect(checkUrlShape('http://93.184.216.34/hooks', open).allowedPrivate).toBe(false);
  });
});

describe('after DNS', () => {
  it('refuses a name that resolves to 127.0.0.1 (localhost, by the system resolver)', async () => {
    const checked = { url: new URL('http://localhost/'), host: 'localhost', port: 80, allowedPrivate: false };
    await expect(resolveTarget(checked)).rejects.toThrow(/private or reserved/);
  });

  it('refuses a name when any of its addresses is private, and connects to the checked one otherwise', async () => {
    const checked = checkUrlShape('https://hooks.example.com/x', open);
    const mixed = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await expect(resolveTarget(checked, mixed)).rejects.toThrow(/private or reserved/);
    const publicOnly = async () => [{ address: '2606:4700:4700::1111', family: 6 }];
    await expect(resolveTarget(checked, publicOnly)).resolves.toEqual({ address: '2606:4700:4700::1111', family: 6 });
  });

  it('never sends to a name that resolves to a private address at delivery (DNS rebinding)', async () => {
    const rebound = async () => [{ address: '127.0.0.1', family: 4 }];
    const result = await sendWebhook('https://hooks.example.com/x', {}, '{}', { config: open, resolve: rebound });
    expect(result).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/private or reserved/) });
  });
});
