import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { adminAuditLog, type InstallationSettingRow, installationSettings } from '../../db/schema';

/** Every process LISTENs here; the payload is only a nudge (each reads the rows again). */
export const SETTINGS_CHANNEL = 'installation_settings';

export function listSettings(db: Executor): Promise<InstallationSettingRow[]> {
  return db.select().from(installationSettings);
}

interface Change {
  actor: string;
  actorUserId: string | null;
  /** The audit row's action ('settings.provider.save', 'settings.contact.remove', ...). */
  action: string;
}

/** Saves one provider's sealed keys, its audit row and the nudge, in one transaction (the nudge is sent on commit). */
export async function saveSetting(
  tx: Executor,
  row: { name: string; sealed: string; hint: string; updatedBy: string | null },
  change: Change,
): Promise<void> {
  const [before] = await tx
    .select({ hint: installationSettings.hint })
    .from(installationSettings)
    .where(eq(installationSettings.name, row.name))
    .for('update');
  await tx
    .insert(installationSettings)
    .values({ ...row, updatedAt: sql`now()` })
    .onConflictDoUpdate({
      target: installationSettings.name,
      set: { sealed: row.sealed, hint: row.hint, updatedBy: row.updatedBy, updatedAt: sql`now()` },
    });
  await tx.insert(adminAuditLog).values({
    ...change,
    before: before ? { setting: row.name, hint: before.hint } : null,
    after: { setting: row.name, hint: row.hint },
  });
  await tx.execute(sql`SELECT pg_notify(${SETTINGS_CHANNEL}, ${row.name})`);
}

/** Removes one provider's saved keys; false when none were saved. */
export async function removeSetting(tx: Executor, name: string, change: Change): Promise<boolean> {
  const [removed] = await tx
    .delete(installationSettings)
    .where(eq(installationSettings.name, name))
    .returning({ hint: installationSettings.hint });
  if (!removed) return false;
  await tx.insert(adminAuditLog).values({
    ...change,
    before: { setting: name, hint: removed.hint },
    after: null,
  });
  await tx.execute(sql`SELECT pg_notify(${SETTINGS_CHANNEL}, ${name})`);
  return true;
}
