import {
  createTableRelationsHelpers,
  type ExtractTablesWithRelations,
  extractTablesRelationalConfig,
  type RelationalSchemaConfig,
} from "drizzle-orm";
import { DrizzleD1Database, SQLiteD1Session } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";

/** The D1 binding, or a Sessions API session on it (middleware/database-session.ts). */
export type D1Connection = D1Database | D1DatabaseSession;

type Schema = typeof schema;
export type Database = DrizzleD1Database<Schema>;

// What drizzle's `drizzle(d1, { schema })` does, with the part that depends only on the schema done
// once per isolate. Every request opens its own D1 session (read replicas, bookmarks), so it needs
// its own database object; drizzle() would walk the whole schema's relations again for each one,
// which a profile of `GET /v1/account` under load put at about a tenth of the Worker's CPU.
const dialect = new SQLiteAsyncDialect();
const tables = extractTablesRelationalConfig<ExtractTablesWithRelations<Schema>>(schema, createTableRelationsHelpers);
const relational: RelationalSchemaConfig<ExtractTablesWithRelations<Schema>> = {
  fullSchema: schema,
  schema: tables.tables,
  tableNamesMap: tables.tableNamesMap,
};

export function createDatabase(d1: D1Connection): Database {
  // drizzle's D1 session calls only prepare() and batch(), which a Sessions API session has as
  // well; its type names the whole binding.
  const session = new SQLiteD1Session<Schema, ExtractTablesWithRelations<Schema>>(
    d1 as D1Database,
    dialect,
    relational,
    {},
  );
  return new DrizzleD1Database<Schema>("async", dialect, session, relational);
}
