import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';
import type { Executor } from '../../db/client';
import * as repo from './notifications.repository';
import { makeVapidKeys, type VapidKeys } from './web-push';

const cachedKeys = new WeakMap<Executor, Promise<VapidKeys>>();

/**
 * The installation's VAPID pair: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set, else the one row
 * in the database, made by the first process that needs it. Every process of the installation (the
 * web process a browser subscribes through, and each worker that sends) signs with the same pair,
 * whatever its data folder: a push request signed with another key is refused by the push service.
 */
export function vapidKeys(ctx: { config: Config; db: Executor }): Promise<VapidKeys> {
  const configured = ctx.config.notifications.vapidKeys;
  if (configured) return Promise.resolve(configured);
  let keys = cachedKeys.get(ctx.db);
  if (!keys) {
    keys = installationKeys(ctx.db, ctx.config.dataDir);
    cachedKeys.set(ctx.db, keys);
    keys.catch(() => cachedKeys.delete(ctx.db));
  }
  return keys;
}

async function installationKeys(db: Executor, dataDir: string): Promise<VapidKeys> {
  const kept = await repo.findPushKeys(db);
  if (kept) return kept;
  // An installation from before the pair moved into the database keeps the one its data folder
  // holds: the browsers that turned notifications on subscribed with it.
  const earlier = await readEarlierKeys(path.join(dataDir, 'vapid-keys.json'));
  return repo.keepPushKeys(db, earlier ?? (await makeVapidKeys()));
}

async function readEarlierKeys(file: string): Promise<VapidKeys | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const value = JSON.parse(text) as Partial<VapidKeys>;
  if (typeof value.publicKey !== 'string' || typeof value.privateKey !== 'string') {
    throw new Error(`${file} does not hold a publicKey and a privateKey`);
  }
  return { publicKey: value.publicKey, privateKey: value.privateKey };
}

/** Hosts no push service can reach, so none takes them as a contact (Apple's answers BadJwtToken). */
const UNREACHABLE_HOST = /^(localhost|[^.]+|.*\.(localhost|local|internal|test|example|invalid)|[\d.]+|\[.*\])$/i;

/**
 * Who push services may contact about this server (RFC 8292, section 2.1: a mailto: or https: URL):
 * VAPID_SUBJECT when set; else the operator's contact (an email address as mailto:, or an https
 * address); else PUBLIC_URL when it is https; else a mailbox at PUBLIC_URL's host. `acceptable` is
 * false for the last when that host is one no push service accepts (localhost, a bare name, an IP):
 * the server says so in its log, since Apple's push service then refuses every notification.
 */
export function vapidSubject(config: Config): { subject: string; acceptable: boolean } {
  if (config.notifications.vapidSubject) return { subject: config.notifications.vapidSubject, acceptable: true };
  const contact = config.operatorContact;
  if (contact && !/^https?:/i.test(contact)) return { subject: `mailto:${contact}`, acceptable: true };
  if (contact?.startsWith('https://')) return { subject: contact, acceptable: true };
  const site = new URL(config.publicUrl);
  if (site.protocol === 'https:' && !UNREACHABLE_HOST.test(site.hostname)) {
    return { subject: site.origin, acceptable: true };
  }
  return { subject: `mailto:no-reply@${site.hostname}`, acceptable: !UNREACHABLE_HOST.test(site.hostname) };
}
