import { createMiddleware } from "hono/factory";
import { createDatabase } from "../db/client";
import type { AppEnv } from "../env";
import { invalidField } from "../errors/validation";

/**
 * Read replicas through D1's Sessions API. Every API response carries the session's latest
 * bookmark in this header; a client that sends it back on its next request reads a database at
 * least that fresh, so it sees its own writes even when the read goes to a replica.
 */
export const BOOKMARK_HEADER = "x-d1-bookmark";

// D1 bookmarks are opaque; today they are dash-separated hex groups (`0000000a-00000003-…`). Anything
// outside this alphabet or length cannot be one, so it is refused before it reaches D1.
const BOOKMARK_PATTERN = /^[0-9A-Za-z-]{1,256}$/;

/**
 * Puts the request's queries on one D1 session. Reads (GET, HEAD) start at the client's bookmark,
 * or anywhere ("first-unconstrained": the nearest replica) without one; writes start on the
 * primary ("first-primary"). A malformed bookmark is 400, never silently ignored: a client that
 * sends one relies on read-your-writes and must learn that it did not get it.
 */
export const databaseSession = createMiddleware<AppEnv>(async (c, next) => {
  const sent = c.req.header(BOOKMARK_HEADER);
  if (sent !== undefined && !BOOKMARK_PATTERN.test(sent)) {
    throw invalidField(
      `header.${BOOKMARK_HEADER}`,
      "Expected the header's value from an earlier response.",
      `The ${BOOKMARK_HEADER} header is not a bookmark this API handed out.`,
    );
  }
  const reads = c.req.method === "GET" || c.req.method === "HEAD";
  const session = c.env.DB.withSession(reads ? (sent ?? "first-unconstrained") : "first-primary");
  c.set("db", createDatabase(session));
  c.set("d1", session);
  await next();
  const bookmark = session.getBookmark();
  if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
});
