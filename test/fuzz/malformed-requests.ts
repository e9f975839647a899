// Seeded malformed requests across every route (README "Security"): methods, paths, query strings,
// headers and bodies (JSON shapes, multipart junk, huge and odd values, encodings, traversal,
// unicode). Run sends them to the Worker and reports any 5xx, and any response or log line that
// holds a stack trace, SQL, or a configured secret or fixture key.
import { exports } from "cloudflare:workers";
import { vi } from "vitest";
import { createCertificate, createPartner, createPublicClient } from "../helpers/factories";

const BASE = "https://api.test";
const ADMIN_TOKEN = "test-admin-token-0123456789";
const CONFIGURED_SECRETS = [
  ADMIN_TOKEN,
  "test-secrets-key-0123456789-0123456789",
  "test-files-signing-secret-0123456789",
];

/** mulberry32: small, fast and the same sequence for the same seed everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROUTES: [string, string][] = [
  ["GET", "/health"],
  ["GET", "/openapi.json"],
  ["GET", "/api/public/v1/openapi.json"],
  ["GET", "/c/{number}"],
  ["GET", "/c/{number}/badge.svg"],
  ["GET", "/files/{key}"],
  ["GET", "/v1/account"],
  ["GET", "/v1/gradings"],
  ["GET", "/v1/gradings/{id}"],
  ["GET", "/v1/cards"],
  ["GET", "/v1/cards/{id}"],
  ["GET", "/v1/webhook-targets"],
  ["POST", "/v1/webhook-targets"],
  ["DELETE", "/v1/webhook-targets/{id}"],
  ["GET", "/api/public/v1/certificates/{number}"],
  ["GET", "/api/public/v1/gradings"],
  ["GET", "/api/public/v1/gradings/{id}"],
  ["POST", "/api/public/v1/gradings"],
  ["POST", "/admin/v1/users"],
  ["POST", "/admin/v1/partner-accounts"],
  ["POST", "/admin/v1/partner-accounts/{id}/keys"],
  ["POST", "/admin/v1/partner-keys/{id}/revoke"],
  ["POST", "/admin/v1/catalog-cards"],
  ["PUT", "/admin/v1/catalog-cards/{id}/reference-image"],
  ["POST", "/admin/v1/grading-sessions"],
  ["POST", "/admin/v1/clients"],
  ["POST", "/admin/v1/clients/{id}/keys"],
  ["POST", "/admin/v1/api-keys/{id}/revoke"],
  ["POST", "/admin/v1/certificates/{number}/revoke"],
  ["PUT", "/admin/v1/clients/{id}/webhook"],
  ["POST", "/admin/v1/clients/{id}/webhook-secret/rotate"],
  ["GET", "/admin/v1/webhook-deliveries"],
  ["GET", "/admin/v1/webhook-deliveries/{id}"],
  ["POST", "/admin/v1/webhook-deliveries/{id}/replay"],
  ["POST", "/admin/v1/clients/{id}/webhook-deliveries/replay"],
  ["GET", "/nowhere/{id}"],
];

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "PROPFIND"];

const ODD_SEGMENTS = [
  "",
  "0",
  "-1",
  "1.5",
  "1e309",
  "99999999999999999999999999",
  "NaN",
  "..",
  "..%2F..%2Fv1%2Faccount",
  "..%2Fv1%2Fcertificates%2F1234567897",
  "%2e%2e%2f%2e%2e%2f",
  "%00",
  "%ZZ",
  "%",
  "%C0%AE%C0%AE",
  "%E2%80%AE",
  "%F0%9F%92%A9",
  "ﬁ",
  "Ⅻ",
  "١٢٣٤٥٦٧٨٩٧",
  "1234567897",
  "1234567890",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "00000000-0000-0000-0000-000000000000",
  "a".repeat(3000),
  "%20",
  "\\..\\..\\",
];

const ODD_QUERY_VALUES = [
  "",
  "-1",
  "0",
  "1e309",
  "abc",
  "9".repeat(40),
  "%00",
  "%ZZ",
  "null",
  "[]",
  "{}",
  "ü",
  "a".repeat(2000),
];
const QUERY_NAMES = [
  "limit",
  "cursor",
  "status",
  "outcome",
  "since",
  "until",
  "client_id",
  "grading_id",
  "q",
  "__proto__",
];

function jsonShapes(pick: <T>(items: readonly T[]) => T, random: () => number): string[] {
  const deep = "[".repeat(2000) + "]".repeat(2000);
  const hugeString = JSON.stringify({ name: "x".repeat(200_000) });
  return [
    "",
    "{",
    "null",
    "[]",
    "{}",
    '"string"',
    "1e309",
    "-0",
    deep,
    hugeString,
    '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
    '{"url":"https://127.0.0.1:22/x","outcome":"success"}',
    '{"url":"https://[::ffff:10.0.0.1]/x","outcome":"failure"}',
    '{"url":"https://localhost./x","outcome":"success"}',
    '{"url":"javascript:alert(1)"}',
    '{"url":null}',
    '{"front_image":{"url":"https://images.example.com/a.jpg"},"back_image":{"base64":"!!!"}}',
    '{"front_image":{"base64":"/9j/4AAQSkZJRgABAQ=="},"back_image":{"base64":""}}',
    '{"front_image":{"base64":"iVBORw0KGgo="},"back_image":{"url":"ftp://x"}}',
    `{"front_image":{"base64":"${"A".repeat(5000)}"},"back_image":{"base64":"${"B".repeat(17)}="}}`,
    '{"front_image":"x","back_image":[],"hints":{"year":-1e309,"player":"\\u0000"}}',
    '{"name":"\\ud800\\udfff\\ud800","email":"a@b","role":"root"}',
    '{"name":123,"hourly_quota":-5,"user_id":"1; DROP TABLE users"}',
    '{"email":"x@example.com","user_id":9007199254740993}',
    `{"image":{"base64":"not base64 at all"},"brand":"${"b".repeat(500)}"}`,
    '{"grades":[{"overall":11}],"images":null}',
    JSON.stringify({ limit: random(), nested: { a: { b: { c: [pick(ODD_QUERY_VALUES)] } } } }),
    "\u0000\u0001\u0002",
    "\xff\xfe\xfd",
  ];
}

function multipartBody(pick: <T>(items: readonly T[]) => T): { body: Uint8Array; boundary: string } {
  const boundary = pick(["xyz", "", "a".repeat(80), "--", "b o u n d"]);
  const parts = pick([
    `--${boundary}\r\nContent-Disposition: form-data; name="front_image"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff\xe0junk\r\n--${boundary}--\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="front_image"\r\n\r\nhttps://images.example.com/a.jpg\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="${"n".repeat(1000)}"\r\n\r\nx\r\n--${boundary}--`,
    `--${boundary}\r\nContent-Disposition: form-data\r\n\r\n--${boundary}--\r\n`,
    "no boundary at all",
    `--other\r\n\r\n--other--`,
    `--${boundary}\r\nContent-Disposition: form-data; name="back_image"; filename="../../etc/passwd"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xff\xff\xff\r\n--${boundary}--\r\n`,
  ]);
  const bytes = new Uint8Array(parts.length);
  for (let i = 0; i < parts.length; i++) bytes[i] = parts.charCodeAt(i) & 0xff;
  return { body: bytes, boundary };
}

export interface FuzzFixtures {
  partnerKey: string;
  publicKey: string;
  certificateNumber: string;
}

export async function createFuzzFixtures(): Promise<FuzzFixtures> {
  const partner = await createPartner();
  const client = await createPublicClient({ hourlyQuota: 10_000_000 });
  const certificate = await createCertificate();
  return { partnerKey: partner.key, publicKey: client.key, certificateNumber: certificate.number };
}

function buildRequest(random: () => number, fixtures: FuzzFixtures): Request {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const [routeMethod, template] = pick(ROUTES);
  const method = random() < 0.75 ? routeMethod : pick(METHODS);
  const path = template.replace(/\{[a-z]+\}/g, () => {
    const roll = random();
    if (roll < 0.2) return fixtures.certificateNumber;
    if (roll < 0.35) return String(1 + Math.floor(random() * 5));
    return pick(ODD_SEGMENTS);
  });
  const query: string[] = [];
  const queryCount = random() < 0.6 ? 0 : 1 + Math.floor(random() * 4);
  for (let i = 0; i < queryCount; i++) query.push(`${pick(QUERY_NAMES)}=${pick(ODD_QUERY_VALUES)}`);
  const url = `${BASE}${path}${query.length ? `?${query.join("&")}` : ""}`;

  const headers = new Headers();
  // Mostly the right credential for the surface, so bodies and parameters reach the handlers.
  if (random() < 0.6) {
    if (path.startsWith("/v1/")) headers.set("authorization", `Bearer ${fixtures.partnerKey}`);
    else if (path.startsWith("/admin/")) headers.set("authorization", `Bearer ${ADMIN_TOKEN}`);
    else if (path.startsWith("/api/public/")) headers.set("x-api-key", fixtures.publicKey);
  }
  const auth = headers.has("authorization") || headers.has("x-api-key") ? 1 : random();
  if (auth < 0.2) headers.set("authorization", `Bearer ${fixtures.partnerKey}`);
  else if (auth < 0.35) headers.set("authorization", `Bearer ${ADMIN_TOKEN}`);
  else if (auth < 0.5) headers.set("x-api-key", fixtures.publicKey);
  else if (auth < 0.6)
    headers.set(
      "authorization",
      pick(["Bearer", "Bearer  ", "Basic Zm9vOmJhcg==", `Bearer ${"x".repeat(5000)}`, "bearer svcp_1_x"]),
    );
  else if (auth < 0.7)
    headers.set(
      "x-api-key",
      pick(["svck_", "svck_1_", "svck_99999999999999999999_x", " ", "svck_-1_x", `svck_1_${"y".repeat(4000)}`]),
    );
  if (random() < 0.2)
    headers.set(
      "idempotency-key",
      pick(["", "a".repeat(300), "k1", "\t", "ü".normalize("NFD")].map((v) => v.replace(/[^\x20-\x7e]/g, "?"))),
    );
  if (random() < 0.1) headers.set("if-none-match", pick(["*", 'W/"x"', '"', "a".repeat(1000)]));
  if (random() < 0.05) headers.set("cf-connecting-ip", pick(["203.0.113.7", "::1", "not-an-ip"]));
  if (random() < 0.1) headers.set("content-length", pick(["0", "-1", "99999999999", "abc"]));

  let body: BodyInit | undefined;
  if (method !== "GET" && method !== "HEAD") {
    const kind = random();
    if (kind < 0.55) {
      body = pick(jsonShapes(pick, random));
      headers.set(
        "content-type",
        pick([
          "application/json",
          "application/json; charset=utf-16",
          "text/plain",
          "application/json;;;",
          "APPLICATION/JSON",
        ]),
      );
    } else if (kind < 0.8) {
      const multipart = multipartBody(pick);
      body = multipart.body;
      headers.set(
        "content-type",
        pick([
          `multipart/form-data; boundary=${multipart.boundary}`,
          "multipart/form-data",
          "multipart/mixed; boundary=zz",
        ]),
      );
    } else if (kind < 0.9) {
      const bytes = new Uint8Array(Math.floor(random() * 4096));
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
      body = bytes;
      headers.set(
        "content-type",
        pick(["application/octet-stream", "image/jpeg", "application/x-www-form-urlencoded"]),
      );
    } else {
      body = `front_image=%ZZ&back_image=${"%00".repeat(100)}`;
      headers.set("content-type", "application/x-www-form-urlencoded");
    }
    headers.delete("content-length");
  }
  return new Request(url, { method, headers, body });
}

const LEAK_PATTERNS: [RegExp, string][] = [
  [/\n\s+at [^\n]+:\d+:\d+/, "stack trace"],
  [/node_modules|\/src\/[a-z-/]+\.ts/, "source path"],
  [/Failed query|SQLITE_|D1_ERROR|params:/, "SQL or database error"],
];

export interface FuzzReport {
  sent: number;
  seconds: number;
  statuses: Record<string, number>;
  failures: string[];
}

/**
 * Sends up to `count` seeded requests within `budgetSeconds`; outbound fetches (image URLs,
 * webhooks, the purge API) are answered locally, so nothing leaves the machine.
 */
export async function runFuzz(seed: number, count: number, budgetSeconds: number): Promise<FuzzReport> {
  const fixtures = await createFuzzFixtures();
  const secrets = [...CONFIGURED_SECRETS, fixtures.partnerKey, fixtures.publicKey];
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("not here", { status: 404 }));
  const logged: string[] = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    logged.push(args.map(String).join(" "));
  });
  const random = seededRandom(seed);
  const started = Date.now();
  const deadline = started + budgetSeconds * 1000;
  const statuses: Record<string, number> = {};
  const failures: string[] = [];
  let sent = 0;
  for (; sent < count && Date.now() < deadline; sent++) {
    const request = buildRequest(random, fixtures);
    const label = `#${sent} ${request.method} ${request.url.slice(0, 160)}`;
    const response = await exports.default.fetch(request);
    const text = await response.text();
    statuses[String(response.status)] = (statuses[String(response.status)] ?? 0) + 1;
    if (response.status >= 500) failures.push(`${label}: ${response.status} ${text.slice(0, 300)}`);
    for (const [pattern, what] of LEAK_PATTERNS)
      if (pattern.test(text)) failures.push(`${label}: response holds ${what}`);
    for (const secret of secrets) if (text.includes(secret)) failures.push(`${label}: response holds a secret or key`);
    if (failures.length > 50) break;
  }
  for (const line of logged) {
    for (const secret of secrets)
      if (line.includes(secret)) failures.push(`log line holds a secret or key: ${line.slice(0, 200)}`);
    if (/params:/.test(line)) failures.push(`log line holds bound values: ${line.slice(0, 200)}`);
  }
  vi.restoreAllMocks();
  return { sent, seconds: (Date.now() - started) / 1000, statuses, failures };
}
