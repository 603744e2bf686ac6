import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The installation's own Content Credentials signer (issue 42), made once by the first process that
 * signs and read by every other, so separate web and worker containers sign with the same one. One
 * row, `id = 'installation'`; unused when the operator names a certificate (C2PA_CERTIFICATE_FILE).
 */
export const signingIdentities = pgTable('signing_identities', {
  id: text('id').primaryKey(),
  certificateChainPem: text('certificate_chain_pem').notNull(),
  privateKeyPem: text('private_key_pem').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
