import { exports } from "cloudflare:workers";

export const BASE = "https://api.test";

// Test bodies are inspected field by field; a loose JSON type keeps assertions readable.
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of any shape
export type Json = any;

/** What every request helper answers: the body parsed when it is JSON, and its text either way. */
export interface Answer {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

/** The one core of the request helpers: reads a response into an Answer. */
export async function readAnswer(response: Response): Promise<Answer> {
  // Decoded by hand: workerd warns when text() is called on an image body (a file route's answer).
  const text = new TextDecoder().decode(await response.arrayBuffer());
  let body: Json = null;
  if (text && response.headers.get("content-type")?.includes("application/json")) body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body, text };
}

/** The request's headers with `Authorization: Bearer <key>` when a key is given. */
function bearerHeaders(init: RequestInit & { key?: string }): Headers {
  const headers = new Headers(init.headers);
  if (init.key !== undefined) headers.set("authorization", `Bearer ${init.key}`);
  return headers;
}

/** Calls the Worker as a client would and parses a JSON body when there is one. */
export async function call(path: string, init: RequestInit & { key?: string } = {}): Promise<Answer> {
  return readAnswer(await exports.default.fetch(`${BASE}${path}`, { ...init, headers: bearerHeaders(init) }));
}

/** Calls the Worker's fetch handler directly with some bindings replaced (config overrides, a wrapped D1). */
export async function callWithEnv(
  path: string,
  overrides: Partial<Record<keyof Env, unknown>>,
  init: RequestInit & { key?: string } = {},
): Promise<Answer> {
  const { env } = await import("cloudflare:workers");
  const { createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
  const worker = (await import("../../src/index")).default;
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${BASE}${path}`, { ...init, headers: bearerHeaders(init) }),
    { ...env, ...overrides } as Env,
    ctx,
  );
  const answer = await readAnswer(response);
  await waitOnExecutionContext(ctx);
  return answer;
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
