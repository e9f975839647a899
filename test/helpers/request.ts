import { exports } from "cloudflare:workers";

export const BASE = "https://api.test";

/** Calls the Worker as a client would and parses a JSON body when there is one. */
export async function call(path: string, init: RequestInit & { key?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.key !== undefined) headers.set("authorization", `Bearer ${init.key}`);
  const response = await exports.default.fetch(`${BASE}${path}`, { ...init, headers });
  const text = new TextDecoder().decode(await response.arrayBuffer());
  let body: unknown = null;
  if (text && response.headers.get("content-type")?.includes("application/json")) body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: body as Json, text };
}

// Test bodies are inspected field by field; a loose JSON type keeps assertions readable.
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of any shape
export type Json = any;

/** Calls the Worker's fetch handler directly with some bindings replaced (config overrides, a wrapped D1). */
export async function callWithEnv(
  path: string,
  overrides: Partial<Record<keyof Env, unknown>>,
  init: RequestInit & { key?: string } = {},
) {
  const { env } = await import("cloudflare:workers");
  const { createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
  const worker = (await import("../../src/index")).default;
  const headers = new Headers(init.headers);
  if (init.key !== undefined) headers.set("authorization", `Bearer ${init.key}`);
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${BASE}${path}`, { ...init, headers }),
    { ...env, ...overrides } as Env,
    ctx,
  );
  const text = await response.text();
  await waitOnExecutionContext(ctx);
  let body: Json = null;
  if (text && response.headers.get("content-type")?.includes("application/json")) body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body, text };
}

/** Follows `next_cursor` from `path` to the end; returns each page's items and the page sizes. */
export async function walkPages<T>(path: string, key: string, listName: "gradings" | "cards") {
  const items: T[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const separator = path.includes("?") ? "&" : "?";
    const res = await call(cursor ? `${path}${separator}cursor=${encodeURIComponent(cursor)}` : path, { key });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.text}`);
    items.push(...res.body[listName]);
    sizes.push(res.body[listName].length);
    cursor = res.body.next_cursor;
    if (!cursor) break;
  }
  return { items, sizes };
}
