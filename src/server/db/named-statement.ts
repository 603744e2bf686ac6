import { getTableColumns, type SQL, sql, type Table } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from './client';

const dialect = new PgDialect();

/** A table's columns as a select list (`"id", "user_id", ...`), in the order `executeNamedForRows` reads them. */
export function columnList(table: Table, from: string): SQL {
  return sql.join(
    Object.values(getTableColumns(table)).map((column) => sql`${sql.identifier(from)}.${sql.identifier(column.name)}`),
    sql`, `,
  );
}

/**
 * Runs a hand-written statement under a fixed name (PostgreSQL parses and plans it once per
 * connection, as Drizzle's `.prepare(name)` does for its builders) and reads its rows as rows of
 * `table`, decoded the way Drizzle decodes them. The statement selects `columnList(table, ...)`
 * first; columns after those are ignored. A name must always carry the same SQL text.
 */
export async function executeNamedForRows<T extends Table>(
  tx: Executor,
  name: string,
  table: T,
  query: SQL,
): Promise<T['$inferSelect'][]> {
  const fields = Object.entries(getTableColumns(table)).map(([key, column]) => ({ path: [key], field: column }));
  const prepared = tx._.session.prepareQuery(dialect.sqlToQuery(query), fields, name, true);
  return (await prepared.execute()) as T['$inferSelect'][];
}
