import { createMiddleware } from "hono/factory";
import { createDatabase } from "../db/client";
import { type AppEnv, loadConfig } from "../env";

/** Gives every request an id (echoed as `x-request-id`), the parsed config and a drizzle client. */
export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const requestId = crypto.randomUUID();
  c.set("requestId", requestId);
  c.header("x-request-id", requestId);
  c.set("config", loadConfig(c.env));
  c.set("db", createDatabase(c.env.DB));
  c.set("d1", c.env.DB);
  await next();
});
