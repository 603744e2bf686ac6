import { getTableColumns, type SQL, sql, type Table } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from './client';

const dialect = new PgDialect();

/** A table's columns as a select list (`"g"."id", "g"."user_id", ...`), in the order `rowsOf` reads them. */
export function columnList(table: Table, from: string): SQL {
  return sql.join(
    Object.values(getTableColumns(table)).map((column) => sql`${sql.identifier(from)}.${sql.identifier(column.name)}`),
    sql`, `,
  );
}

const fieldsOf = (table: Table) =>
  Object.entries(getTableColumns(table)).map(([key, column]) => ({ path: [key], field: column }));

/**
 * A hot statement, built once: its SQL text is made on first use with `sql.placeholder(...)` for
 * every value, then each run only fills the placeholders (building SQL with Drizzle costs more CPU
 * than the database takes to run these), and it runs under a fixed name, so PostgreSQL parses and
 * plans it once per connection. `build` may use any executor's builders (the text does not depend
 * on the connection).
 */
export function prebuilt(name: string, build: (tx: Executor) => SQL) {
  let query: ReturnType<PgDialect['sqlToQuery']> | undefined;
  const queryFor = (tx: Executor) => (query ??= dialect.sqlToQuery(build(tx)));
  return {
    /** Its rows as the database sends them (column names as selected). */
    async raw<R>(tx: Executor, values: Record<string, unknown>): Promise<R[]> {
      const result = await tx._.session.prepareQuery(queryFor(tx), undefined, name, false).execute(values);
      return (result as { rows: R[] }).rows;
    },
    /**
     * Its rows read as rows of `table`, decoded as Drizzle decodes them: the statement selects
     * `columnList(table, ...)` first (later columns are ignored).
     */
    async rowsOf<T extends Table>(
      tx: Executor,
      table: T,
      values: Record<string, unknown>,
    ): Promise<T['$inferSelect'][]> {
      const prepared = tx._.session.prepareQuery(queryFor(tx), fieldsOf(table), name, true);
      return (await prepared.execute(values)) as T['$inferSelect'][];
    },
  };
}
