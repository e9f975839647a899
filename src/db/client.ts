import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/** The D1 binding, or a Sessions API session on it (middleware/database-session.ts). */
export type D1Connection = D1Database | D1DatabaseSession;

export function createDatabase(d1: D1Connection) {
  // drizzle's D1 driver calls only prepare() and batch(), which a session has as well; its type
  // names the whole binding.
  return drizzle(d1 as D1Database, { schema });
}

export type Database = ReturnType<typeof createDatabase>;
