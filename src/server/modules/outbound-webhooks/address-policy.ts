import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { WebhooksConfig } from '../../config-webhooks';
import { AppError } from '../../lib/app-error';

// Which addresses a webhook may reach (no server-side request forgery). The WHATWG URL parser
// first turns every way of writing an IPv4 address (decimal 2130706433, hex 0x7f.1, octal 0177.0.0.1,
// short 127.1) into dotted form and compresses IPv6, so the checks below see one spelling. Names are
// resolved, and every address they resolve to must be public; the delivery then connects to the
// address that was checked (delivery.ts), so a second DNS answer cannot swap it.

/** Special-purpose IPv4 ranges (IANA's registry): none of them is a public receiver. */
const IPV4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];

/** Inside global unicast (2000::/3), the special-purpose IPv6 ranges. */
const IPV6_BLOCKED: [string, number][] = [
  ['2001::', 23], // IETF protocol assignments (Teredo 2001::/32 among them)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
];

const ipv4Blocked = new BlockList();
for (const [network, prefix] of IPV4_BLOCKED) ipv4Blocked.addSubnet(network, prefix, 'ipv4');
const ipv6Blocked = new BlockList();
for (const [network, prefix] of IPV6_BLOCKED) ipv6Blocked.addSubnet(network, prefix, 'ipv6');
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const v4FromGroups = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** True for an address a webhook may reach: public unicast, never loopback, private, link-local and the like. */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return !ipv4Blocked.check(address, 'ipv4');
  if (version !== 6) return false;
  const g = ipv6Groups(address);
  // IPv4-mapped (::ffff:a.b.c.d) and the NAT64 well-known prefix (64:ff9b::/96) carry an IPv4 address.
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff)
    return isPublicAddress(v4FromGroups(g[6] ?? 0, g[7] ?? 0));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return isPublicAddress(v4FromGroups(g[6] ?? 0, g[7] ?? 0));
  // 6to4 (2002::/16) embeds an IPv4 address in its second and third groups.
  if (g[0] === 0x2002) return isPublicAddress(v4FromGroups(g[1] ?? 0, g[2] ?? 0));
  return globalUnicast.check(address, 'ipv6') && !ipv6Blocked.check(address, 'ipv6');
}

/** A webhook URL as checked: its parsed form, the host without brackets or trailing dot, and its port. */
export interface CheckedUrl {
  url: URL;
  host: string;
  port: number;
  /** An operator-allowed intranet receiver (WEBHOOK_ALLOWED_PRIVATE_HOSTS): private addresses pass. */
  allowedPrivate: boolean;
}

const refuse = (message: string) => new AppError(422, 'webhook_url_refused', message);

/**
 * The checks that need no DNS: a parseable http(s) URL, https in production (allowed intranet hosts
 * excepted), no credentials in it, and, when the host is an address, a public one.
 */
export function checkUrlShape(text: string, config: WebhooksConfig): CheckedUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('The webhook URL is not a valid URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('The webhook URL must start with https://.');
  if (url.username || url.password) throw refuse('The webhook URL must not contain a user name or password.');
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (!host) throw refuse('The webhook URL has no host.');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const hostPort = isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
  const allowedPrivate = config.allowedPrivateHosts.has(hostPort);
  if (allowedPrivate) return { url, host, port, allowedPrivate };
  if (config.requireHttps && url.protocol !== 'https:') throw refuse('The webhook URL must start with https://.');
  if (isIP(host) !== 0) {
    if (!isPublicAddress(host)) throw refuse('The webhook URL points to a private or reserved address.');
  } else if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
    // Single-label names resolve through local search domains: an intranet, never the internet.
    throw refuse('The webhook URL points to a private or reserved address.');
  }
  return { url, host, port, allowedPrivate };
}

/** Resolves with the system resolver; every address is checked, not just the first. */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;
export const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Where to connect for a checked URL: the first address of its host, once every address it
 * resolves to has been found public (any address for an allowed intranet host). Throws a 422
 * AppError when the host cannot be resolved or reaches a non-public address.
 */
export async function resolveTarget(
  checked: CheckedUrl,
  resolve: Resolve = systemResolve,
): Promise<{ address: string; family: 4 | 6 }> {
  const literal = isIP(checked.host);
  if (literal !== 0) return { address: checked.host, family: literal === 6 ? 6 : 4 };
  let addresses: { address: string; family: number }[];
  try {
    addresses = await resolve(checked.host);
  } catch {
    throw refuse(`The webhook host ${checked.host} could not be resolved.`);
  }
  const first = addresses[0];
  if (!first) throw refuse(`The webhook host ${checked.host} could not be resolved.`);
  if (!checked.allowedPrivate && addresses.some((a) => !isPublicAddress(a.address)))
    throw refuse('The webhook URL points to a private or reserved address.');
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** The whole check of a URL a user gives: its shape, then where its name resolves. */
export async function checkWebhookUrl(
  text: string,
  config: WebhooksConfig,
  resolve: Resolve = systemResolve,
): Promise<CheckedUrl> {
  const checked = checkUrlShape(text, config);
  await resolveTarget(checked, resolve);
  return checked;
}
