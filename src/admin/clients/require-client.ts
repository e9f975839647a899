// The operator's routes about one client answer 404 for an id that names none.
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { apiClients } from "../../db/schema";
import { ApiError } from "../../errors/api-error";

/** Throws 404 `not_found` unless API client `id` exists. */
export async function requireClient(db: Database, id: number): Promise<void> {
  const [client] = await db.select({ id: apiClients.id }).from(apiClients).where(eq(apiClients.id, id)).limit(1);
  if (!client) throw new ApiError("not_found", `No client ${id}.`);
}
