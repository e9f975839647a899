import { createMiddleware } from "hono/factory";
import { timingSafeEqualStrings } from "../auth/api-keys";
import { parseBearer } from "../auth/bearer";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";

/**
 * The operator API: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. Without an
 * ADMIN_TOKEN the whole surface answers 404, as if it did not exist.
 */
export const adminAuth = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.var.config.ADMIN_TOKEN;
  if (!expected) throw new ApiError("not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`);
  const token = parseBearer(c.req.header("authorization"));
  if (!timingSafeEqualStrings(token, expected)) {
    throw new ApiError("invalid_token", "The admin token is not valid.", {
      headers: { "WWW-Authenticate": 'Bearer realm="svc-admin", error="invalid_token"' },
    });
  }
  await next();
});
