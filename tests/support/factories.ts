import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SubscriptionStatus } from '../../src/shared/auth';
import type { Db } from '../../src/server/db/client';
import { users, type UserRow } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/modules/auth/password';
import { injectJson, sessionCookieFrom } from './app';

export interface UserOverrides {
  email?: string;
  password?: string;
  firstName?: string | null;
  lastName?: string | null;
  isAdmin?: boolean;
  subscriptionStatus?: SubscriptionStatus;
  creditsHundredths?: number;
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${counter}-${randomBytes(3).toString('hex')}@example.com`;
}

/** Inserts a user directly (bypassing registration rules such as the first-admin claim). */
/**
 * One real Argon2id hash per password per test process (about 16 ms each, for hundreds of users a
 * run): sign-in still verifies it, and each row gets its hash as registration would make it.
 */
const hashes = new Map<string, Promise<string>>();
function testHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

export async function createUser(db: Db, overrides: UserOverrides = {}): Promise<UserRow & { password: string }> {
  const password = overrides.password ?? 'correct horse battery';
  const [row] = await db
    .insert(users)
    .values({
      email: overrides.email ?? uniqueEmail(),
      passwordHash: await testHash(password),
      firstName: overrides.firstName === undefined ? 'Test' : overrides.firstName,
      lastName: overrides.lastName === undefined ? 'User' : overrides.lastName,
      isAdmin: overrides.isAdmin ?? false,
      subscriptionStatus: overrides.subscriptionStatus ?? 'inactive',
      creditsHundredths: overrides.creditsHundredths ?? 0,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return { ...row, password };
}

/** The sign-in form's two fields for a user: POST /api/auth/login refuses any other field of the row. */
export const credentialsOf = (user: { email: string; password: string }) => ({
  email: user.email,
  password: user.password,
});

/** Signs a user in over HTTP and answers the Cookie header. */
export async function signIn(app: FastifyInstance, user: { email: string; password: string }): Promise<string> {
  const response = await injectJson(app, 'POST', '/api/auth/login', { body: credentialsOf(user) });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return sessionCookieFrom(response);
}

/** Uploads a file through the API as the browser does (upload target, then PUT); answers its objectPath. */
export async function uploadFile(app: FastifyInstance, cookie: string, body: Buffer): Promise<string> {
  const target = await injectJson(app, 'POST', '/api/objects/upload', { cookie });
  if (target.statusCode !== 200) throw new Error(`upload target failed: ${target.statusCode} ${target.body}`);
  const { uploadURL, objectPath } = target.json<{ uploadURL: string; objectPath: string }>();
  const put = await app.inject({
    method: 'PUT',
    url: uploadURL,
    payload: body,
    headers: { 'content-type': 'application/octet-stream' },
  });
  if (put.statusCode !== 200) throw new Error(`upload failed: ${put.statusCode} ${put.body}`);
  return objectPath;
}

/** An administrator (unlimited, as the first account of an installation is) and their session cookie. */
export async function signedInAdmin(
  app: FastifyInstance,
  db: Db,
  prefix = 'admin',
): Promise<{ admin: UserRow & { password: string }; cookie: string }> {
  const admin = await createUser(db, {
    isAdmin: true,
    subscriptionStatus: 'premium_unlimited',
    email: uniqueEmail(prefix),
  });
  return { admin, cookie: await signIn(app, admin) };
}
