import type { ServiceContext } from '../context';
import type { UserRow } from '../db/schema';
import { type Actor, deleteUserRecord, requireDeletableUser } from '../modules/admin/admin.service';
import { deleteUserOutputs } from '../modules/generations/generations.service';
import { cancelSubscriptionForAdmin } from '../modules/money/stripe/subscription-manage.service';
import { deleteUserFiles } from '../modules/uploads/uploads.service';

/**
 * Deletes an account and everything that belongs to it: the one way for an administrator's Delete
 * (`DELETE /api/admin/users/:id`) and a user's own (`DELETE /api/account`, after their confirmation).
 * In order: the last administrator is refused before anything else happens (409 last_admin); a
 * subscriber's subscription is cancelled at Stripe (a deleted user must not go on paying; if Stripe
 * refuses, nothing is deleted); the rows go in one transaction with their audit rows (admin.service);
 * then, once that has committed, the uploaded and generated files. Answers the deleted row.
 */
export async function deleteAccount(ctx: ServiceContext, actor: Actor, userId: string): Promise<UserRow> {
  const target = await requireDeletableUser(ctx, userId);
  const cancelled = await cancelSubscriptionForAdmin(ctx, target);
  const user = await deleteUserRecord(ctx, actor, userId, cancelled);
  await deleteUserFiles(ctx, user.id);
  await deleteUserOutputs(ctx, user.id);
  return user;
}
