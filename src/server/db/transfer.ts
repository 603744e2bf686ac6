import { createHash } from 'node:crypto';

/**
 * Whole-database reading and copying for the operator's backup, restore and move to PostgreSQL
 * (`npm run admin -- backup | restore | move-to-postgres`). It reads the catalogue rather than the
 * Drizzle schema, so every table the migrations made is included (sessions too), in foreign-key order.
 *
 * Rows travel as PostgreSQL's own JSON text (`row_to_json`, read with the session's time zone in UTC)
 * and are written back with `json_populate_recordset`, so every column type is converted by the
 * server's own input functions: no value passes through a JavaScript Date or number on the way.
 */

/** One SQL statement on one connection (the same session for every call). */
export type RunSql = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export interface TableInfo {
  name: string;
  /** Columns the copy writes (generated columns are left to the target). */
  columns: string[];
  primaryKey: string[];
  /** Columns whose default takes a sequence's next value (bigserial), reset after a copy. */
  sequenceColumns: string[];
}

export interface TableSummary {
  rows: number;
  /** SHA-256 over the sorted SHA-256 of each row's JSON text: equal tables, equal sums. */
  sha256: string;
}

/** Sums that must survive any copy: every balance and every ledger. */
export interface MoneySums {
  usersCreditsHundredths: string;
  creditLedgerHundredths: string;
  allowanceLedger: string;
}

const PAGE_ROWS = 2000;

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The tables of the public schema, parents before children (foreign keys). */
export async function listTables(run: RunSql): Promise<TableInfo[]> {
  const tables = (
    await run(`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname`)
  ).map((r) => String(r.name));
  const columns = await run(
    `SELECT table_name, column_name, is_generated, column_default, is_identity FROM information_schema.columns
     WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
  const keys = await run(
    `SELECT c.conrelid::regclass::text AS table_name, a.attname AS column_name, k.ord
     FROM pg_constraint c CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
     JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
     JOIN pg_namespace n ON n.oid = c.connamespace
     WHERE c.contype = 'p' AND n.nspname = 'public' ORDER BY 1, k.ord`,
  );
  const references = await run(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
     FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
     WHERE c.contype = 'f' AND n.nspname = 'public'`,
  );
  const bare = (name: string) => name.replace(/^public\./, '').replace(/^"(.*)"$/, '$1');
  const infos = new Map<string, TableInfo>(
    tables.map((name) => [name, { name, columns: [], primaryKey: [], sequenceColumns: [] }]),
  );
  for (const c of columns) {
    const info = infos.get(String(c.table_name));
    if (!info || c.is_generated === 'ALWAYS') continue;
    info.columns.push(String(c.column_name));
    if ((typeof c.column_default === 'string' && c.column_default.startsWith('nextval(')) || c.is_identity === 'YES')
      info.sequenceColumns.push(String(c.column_name));
  }
  for (const k of keys) infos.get(bare(String(k.table_name)))?.primaryKey.push(String(k.column_name));
  const parents = new Map<string, Set<string>>(tables.map((t) => [t, new Set()]));
  for (const r of references) {
    const child = bare(String(r.child));
    const parent = bare(String(r.parent));
    if (child !== parent) parents.get(child)?.add(parent);
  }
  // Parents first (Kahn's order, alphabetical among equals so every run copies in the same order).
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.find((t) => !placed.has(t) && [...(parents.get(t) ?? [])].every((p) => placed.has(p)));
    if (!ready) throw new Error('The tables reference each other in a cycle; they cannot be copied in order.');
    placed.add(ready);
    ordered.push(infos.get(ready)!);
  }
  return ordered;
}

/** Every row of a table as PostgreSQL's JSON text, a page at a time (ordered by the primary key). */
export async function* tableRows(run: RunSql, table: TableInfo): AsyncGenerator<string[]> {
  const order = table.primaryKey.length > 0 ? table.primaryKey.map(quoteIdent).join(', ') : 'ctid';
  for (let offset = 0; ; offset += PAGE_ROWS) {
    const rows = await run(
      `SELECT row_to_json(t)::text AS r FROM ${quoteIdent(table.name)} t ORDER BY ${order} LIMIT ${PAGE_ROWS} OFFSET ${offset}`,
    );
    if (rows.length > 0) yield rows.map((r) => String(r.r));
    if (rows.length < PAGE_ROWS) return;
  }
}

/** Row count and content checksum of every table (the session's time zone is set to UTC first). */
export async function summarizeTables(run: RunSql, tables?: TableInfo[]): Promise<Record<string, TableSummary>> {
  await run(`SET TIME ZONE 'UTC'`);
  const summaries: Record<string, TableSummary> = {};
  for (const table of tables ?? (await listTables(run))) {
    const digests: Buffer[] = [];
    for await (const page of tableRows(run, table))
      for (const row of page) digests.push(createHash('sha256').update(row).digest());
    digests.sort((a, b) => Buffer.compare(a, b));
    const all = createHash('sha256');
    for (const digest of digests) all.update(digest);
    summaries[table.name] = { rows: digests.length, sha256: all.digest('hex') };
  }
  return summaries;
}

export async function moneySums(run: RunSql): Promise<MoneySums> {
  const [row] = await run(
    `SELECT (SELECT COALESCE(SUM(credits_hundredths), 0) FROM users)::text AS users,
            (SELECT COALESCE(SUM(delta_hundredths), 0) FROM credit_ledger)::text AS ledger,
            (SELECT COALESCE(SUM(delta), 0) FROM allowance_ledger)::text AS allowances`,
  );
  return {
    usersCreditsHundredths: String(row?.users),
    creditLedgerHundredths: String(row?.ledger),
    allowanceLedger: String(row?.allowances),
  };
}

/**
 * Tables whose row the migrations themselves write (the installation's one row): a database the
 * server only started on still counts as empty, and a copy replaces these rows with the source's.
 */
export const MIGRATION_SEEDED = new Set(['installation']);

/** Tables of the public schema that hold at least one row (leaving out the migrations' own rows). */
export async function nonEmptyTables(run: RunSql): Promise<string[]> {
  const found: string[] = [];
  for (const table of await listTables(run)) {
    if (MIGRATION_SEEDED.has(table.name)) continue;
    const rows = await run(`SELECT 1 FROM ${quoteIdent(table.name)} LIMIT 1`);
    if (rows.length > 0) found.push(table.name);
  }
  return found;
}

/**
 * Copies every row of `tables` from `source` into the same tables of `target` (already migrated to
 * the same schema, empty but for the migrations' own rows, which are replaced), parents first, then moves each sequence past the largest copied value.
 * Runs on the caller's connections: the caller holds the target's transaction. Answers rows copied.
 */
export async function copyTables(source: RunSql, target: RunSql, tables: TableInfo[]): Promise<number> {
  await source(`SET TIME ZONE 'UTC'`);
  await target(`SET LOCAL TIME ZONE 'UTC'`);
  for (const table of [...tables].reverse())
    if (MIGRATION_SEEDED.has(table.name)) await target(`DELETE FROM ${quoteIdent(table.name)}`);
  let copied = 0;
  for (const table of tables) {
    const columns = table.columns.map(quoteIdent).join(', ');
    const name = quoteIdent(table.name);
    for await (const page of tableRows(source, table)) {
      await target(
        `INSERT INTO ${name} (${columns}) OVERRIDING SYSTEM VALUE
         SELECT ${columns} FROM json_populate_recordset(NULL::${name}, $1::json)`,
        [`[${page.join(',')}]`],
      );
      copied += page.length;
    }
    for (const column of table.sequenceColumns) {
      await target(
        `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT MAX(${quoteIdent(column)}) FROM ${name}), 0) + 1, false)`,
        [name, column],
      );
    }
  }
  return copied;
}
