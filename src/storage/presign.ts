// Over 300 lines on purpose: the signer and the /files route's verifier share one canonicalisation
// and key derivation, and keeping them in one file keeps them from drifting apart.
import { createHash, createHmac } from "node:crypto";
import { timingSafeEqualStrings } from "../auth/api-keys";
import type { Config } from "../env";

// Presigned image URLs: AWS SigV4 query signing for GET. With R2 S3 credentials the URL points at
// R2's S3 endpoint; without them at this Worker's /files route, which checks the same signature
// against FILES_SIGNING_SECRET and streams from the R2 binding.
//
// This is a narrow SigV4 signer (GET, query signing, `host` the only signed header, unsigned
// payload) instead of aws4fetch's general one, because a list page signs 50 URLs: aws4fetch
// re-imports an HMAC key and re-parses the URL for every one, so each URL cost three WebCrypto
// calls and two URL objects. Here the day's signing key is derived once per (secret, date, region,
// service) and kept in the isolate, and each URL costs one SHA-256 of its canonical request and one
// HMAC, computed synchronously with `node:crypto` (workerd implements it natively with BoringSSL,
// under the nodejs_compat flag; a microbenchmark in workerd: about 11 µs per URL, against 110 µs
// for the same hashes in pure JavaScript). A WebCrypto call's promise and buffer copies cost more
// than hashing a few hundred bytes, and no dependency is needed. Its signatures are
// aws4fetch's, byte for byte (test/storage/presign.test.ts).

const LOCAL_ACCESS_KEY_ID = "svc-files";
const REGION = "auto";
const SERVICE = "s3";
const ALGORITHM = "AWS4-HMAC-SHA256";
const SIGNED_HEADERS = "host";
const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
export const FILES_PREFIX = "/files/";

// The day's signing key by secret, day, region and service. A key is valid for one UTC day, so an
// isolate holds at most a couple (today's and, around midnight, yesterday's); older ones are dropped.
const signingKeys = new Map<string, Uint8Array>();
const MAX_SIGNING_KEYS = 8;

const hmacSha256 = (key: string | Uint8Array, data: string) => createHmac("sha256", key).update(data).digest();

function deriveSigningKey(secret: string, date: string, region: string, service: string): Uint8Array {
  let key = hmacSha256(`AWS4${secret}`, date);
  for (const part of [region, service, "aws4_request"]) key = hmacSha256(key, part);
  return key;
}

function signingKey(secret: string, date: string, region: string, service: string): Uint8Array {
  const cacheKey = `${secret}\n${date}\n${region}\n${service}`;
  let key = signingKeys.get(cacheKey);
  if (!key) {
    if (signingKeys.size >= MAX_SIGNING_KEYS) signingKeys.clear();
    key = deriveSigningKey(secret, date, region, service);
    signingKeys.set(cacheKey, key);
  }
  return key;
}

/** HMAC-SHA256 of `data` under the day's key, hex. */
function signWith(key: Uint8Array, data: string): string {
  return createHmac("sha256", key).update(data).digest("hex");
}

/** SHA-256 of `data` (UTF-8), hex. */
const sha256Hex = (data: string) => createHash("sha256").update(data).digest("hex");

const UNRESERVED = /^[A-Za-z0-9._~-]*$/;

/** RFC 3986 encoding, as SigV4 requires: encodeURIComponent plus `!'()*`. */
function encodeRfc3986(value: string): string {
  if (UNRESERVED.test(value)) return value;
  return encodeURIComponent(value).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Decodes one query component. A `+` is a space, as in `application/x-www-form-urlencoded` and as
 * S3 reads it; this one function decodes at signing and at verification, so a `+` can never mean
 * a space to one side and a plus to the other. The signer itself never writes a bare `+`.
 */
function decodeQueryComponent(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, " "));
}

type QueryPair = [name: string, value: string];

/** The query's name/value pairs, decoded; throws URIError on a malformed escape. */
function parseQuery(search: string): QueryPair[] {
  const query = search.startsWith("?") ? search.slice(1) : search;
  if (!query) return [];
  return query
    .split("&")
    .filter((part) => part !== "")
    .map((part) => {
      const at = part.indexOf("=");
      const name = at === -1 ? part : part.slice(0, at);
      const value = at === -1 ? "" : part.slice(at + 1);
      return [decodeQueryComponent(name), decodeQueryComponent(value)];
    });
}

/** SigV4's canonical query string: names and values RFC 3986-encoded, sorted by name then value. */
function canonicalQuery(pairs: QueryPair[]): string {
  return pairs
    .map(([name, value]): QueryPair => [encodeRfc3986(name), encodeRfc3986(value)])
    .sort(([n1, v1], [n2, v2]) => (n1 < n2 ? -1 : n1 > n2 ? 1 : v1 < v2 ? -1 : v1 > v2 ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

/**
 * The canonical path: the decoded path encoded once, `/` kept. In a path a `+` is a plus (RFC 3986),
 * decoded here exactly as the /files route decodes the object key, so a URL signed for `a b.png`
 * cannot be respelled `a+b.png` to reach another object. (aws4fetch reads a bare `+` in a path as a
 * space; the signer never writes one.) Throws URIError on a malformed escape.
 */
function canonicalPath(pathname: string): string {
  return encodeRfc3986(decodeURIComponent(pathname)).replace(/%2F/g, "/");
}

interface SignInput {
  host: string;
  pathname: string;
  /** Every query parameter except X-Amz-Signature, decoded. */
  query: QueryPair[];
  secret: string;
  /** `YYYYMMDDTHHMMSSZ` */
  datetime: string;
}

/** The `YYYYMMDD` of a SigV4 `YYYYMMDDTHHMMSSZ` datetime: the date its credential scope names. */
const dateStamp = (datetime: string) => datetime.slice(0, "YYYYMMDD".length);

function signature(input: SignInput): string {
  const date = dateStamp(input.datetime);
  const canonicalRequest = [
    "GET",
    canonicalPath(input.pathname),
    canonicalQuery(input.query),
    `host:${input.host}\n`,
    SIGNED_HEADERS,
    UNSIGNED_PAYLOAD,
  ].join("\n");
  const stringToSign = [
    ALGORITHM,
    input.datetime,
    `${date}/${REGION}/${SERVICE}/aws4_request`,
    sha256Hex(canonicalRequest),
  ].join("\n");
  return signWith(signingKey(input.secret, date, REGION, SERVICE), stringToSign);
}

/** The SigV4 query parameters a presigned GET carries, in a fixed order. */
function presignParams(accessKeyId: string, datetime: string, ttlSeconds: number): QueryPair[] {
  return [
    ["X-Amz-Algorithm", ALGORITHM],
    ["X-Amz-Credential", `${accessKeyId}/${dateStamp(datetime)}/${REGION}/${SERVICE}/aws4_request`],
    ["X-Amz-Date", datetime],
    ["X-Amz-Expires", String(ttlSeconds)],
    ["X-Amz-SignedHeaders", SIGNED_HEADERS],
  ];
}

/**
 * Presigns `url` (which may carry query parameters of its own, signed with it) for GET. The
 * returned URL's query is the canonical query plus X-Amz-Signature, so it holds no bare `+`.
 */
export async function presignUrl(options: {
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  datetime: string;
  ttlSeconds: number;
}): Promise<string> {
  const url = new URL(options.url);
  const own = parseQuery(url.search);
  const query = [...own, ...presignParams(options.accessKeyId, options.datetime, options.ttlSeconds)];
  const sig = signature({
    host: url.host,
    pathname: url.pathname,
    query,
    secret: options.secretAccessKey,
    datetime: options.datetime,
  });
  return `${url.origin}${url.pathname}?${canonicalQuery(query)}&X-Amz-Signature=${sig}`;
}

interface Signing {
  /** `https://host` of the URL. */
  origin: string;
  host: string;
  /** The URL's path, already in canonical form (each key segment RFC 3986-encoded, `/` kept). */
  path: string;
  accessKeyId: string;
  secretAccessKey: string;
}

// The host of each origin seen (an isolate serves one or two); parsing a URL per image was a
// visible share of a list page's CPU.
const hosts = new Map<string, string>();
function hostOf(origin: string): string {
  let host = hosts.get(origin);
  if (host === undefined) {
    host = new URL(origin).host;
    if (hosts.size >= 16) hosts.clear();
    hosts.set(origin, host);
  }
  return host;
}

function signingFor(config: Config, origin: string, key: string): Signing {
  const encodedKey = key.split("/").map(encodeRfc3986).join("/");
  if (config.R2_ACCOUNT_ID && config.R2_ACCESS_KEY_ID && config.R2_SECRET_ACCESS_KEY) {
    const host = `${config.R2_ACCOUNT_ID}.r2.cloudflarestorage.com`;
    return {
      origin: `https://${host}`,
      host,
      path: `/${encodeRfc3986(config.R2_BUCKET_NAME)}/${encodedKey}`,
      accessKeyId: config.R2_ACCESS_KEY_ID,
      secretAccessKey: config.R2_SECRET_ACCESS_KEY,
    };
  }
  if (!config.FILES_SIGNING_SECRET) {
    throw new Error("Neither R2 S3 credentials nor FILES_SIGNING_SECRET is configured; cannot presign image URLs.");
  }
  return {
    origin,
    host: hostOf(origin),
    path: `${FILES_PREFIX}${encodedKey}`,
    accessKeyId: LOCAL_ACCESS_KEY_ID,
    secretAccessKey: config.FILES_SIGNING_SECRET,
  };
}

// The last second's X-Amz-Date: a page signs all its URLs with the same `now`.
let lastDate = { second: Number.NaN, text: "" };
export function amzDate(now: number): string {
  const second = Math.floor(now / 1000);
  if (lastDate.second !== second) {
    lastDate = { second, text: new Date(second * 1000).toISOString().replace(/[:-]|\.\d{3}/g, "") };
  }
  return lastDate.text;
}

// The canonical query of the SigV4 parameters alone (the image URLs carry no query of their own),
// the same for every URL a request signs.
let lastQuery = { key: "", text: "" };
function presignQuery(accessKeyId: string, datetime: string, ttlSeconds: number): string {
  const key = `${accessKeyId}\n${datetime}\n${ttlSeconds}`;
  if (lastQuery.key !== key)
    lastQuery = { key, text: canonicalQuery(presignParams(accessKeyId, datetime, ttlSeconds)) };
  return lastQuery.text;
}

/**
 * A GET URL for the R2 object `key`, valid for `ttlSeconds` (PRESIGNED_URL_TTL_SECONDS) from `now`.
 * The same signature `presignUrl` computes for the same URL (test/storage/presign.test.ts), built
 * without parsing it back: one SHA-256 and one HMAC per URL.
 */
export async function presignImageUrl(
  config: Config,
  origin: string,
  key: string,
  now = Date.now(),
  ttlSeconds = config.PRESIGNED_URL_TTL_SECONDS,
): Promise<string> {
  const signing = signingFor(config, origin, key);
  const datetime = amzDate(now);
  const date = dateStamp(datetime);
  const query = presignQuery(signing.accessKeyId, datetime, ttlSeconds);
  const canonicalRequest = `GET\n${signing.path}\n${query}\nhost:${signing.host}\n\n${SIGNED_HEADERS}\n${UNSIGNED_PAYLOAD}`;
  const stringToSign = `${ALGORITHM}\n${datetime}\n${date}/${REGION}/${SERVICE}/aws4_request\n${sha256Hex(canonicalRequest)}`;
  const sig = signWith(signingKey(signing.secretAccessKey, date, REGION, SERVICE), stringToSign);
  return `${signing.origin}${signing.path}?${query}&X-Amz-Signature=${sig}`;
}

/** Presigns each non-null key; null stays null (no attachment). */
export async function presignOptional(
  config: Config,
  origin: string,
  key: string | null | undefined,
  now = Date.now(),
): Promise<string | null> {
  return key ? presignImageUrl(config, origin, key, now) : null;
}

export type FilesVerdict = { ok: true; key: string } | { ok: false; reason: string };

const REQUIRED_PARAMS = [
  "X-Amz-Algorithm",
  "X-Amz-Credential",
  "X-Amz-Date",
  "X-Amz-Expires",
  "X-Amz-SignedHeaders",
  "X-Amz-Signature",
] as const;

/**
 * Checks a request to the local /files route: a SigV4 query signature by FILES_SIGNING_SECRET over
 * this exact URL (path, host and every query parameter), not expired. The query is decoded by the
 * same function the signer uses.
 */
export async function verifyFilesUrl(config: Config, requestUrl: string, now = Date.now()): Promise<FilesVerdict> {
  if (!config.FILES_SIGNING_SECRET) return { ok: false, reason: "local file signing is not configured" };
  const url = new URL(requestUrl);
  let pairs: QueryPair[];
  try {
    pairs = parseQuery(url.search);
  } catch {
    return { ok: false, reason: "malformed signature parameters" };
  }
  const params = new Map<string, string>();
  for (const [name, value] of pairs) {
    // A repeated parameter is ambiguous (which one did the signer mean?): refuse it.
    if (params.has(name)) return { ok: false, reason: "malformed signature parameters" };
    params.set(name, value);
  }
  if (REQUIRED_PARAMS.some((name) => !params.has(name))) return { ok: false, reason: "missing signature parameters" };
  const date = params.get("X-Amz-Date") ?? "";
  const expires = params.get("X-Amz-Expires") ?? "";
  const signatureParam = params.get("X-Amz-Signature") ?? "";
  if (!/^\d{8}T\d{6}Z$/.test(date) || !/^\d{1,6}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signatureParam))
    return { ok: false, reason: "malformed signature parameters" };
  if (
    params.get("X-Amz-Algorithm") !== ALGORITHM ||
    params.get("X-Amz-SignedHeaders") !== SIGNED_HEADERS ||
    params.get("X-Amz-Credential") !== `${LOCAL_ACCESS_KEY_ID}/${dateStamp(date)}/${REGION}/${SERVICE}/aws4_request`
  )
    return { ok: false, reason: "unknown credential" };

  const signedAt = Date.UTC(
    Number(date.slice(0, 4)),
    Number(date.slice(4, 6)) - 1,
    Number(date.slice(6, 8)),
    Number(date.slice(9, 11)),
    Number(date.slice(11, 13)),
    Number(date.slice(13, 15)),
  );
  const expiresAt = signedAt + Number(expires) * 1000;
  if (Number.isNaN(signedAt) || now > expiresAt) return { ok: false, reason: "expired" };
  // A URL dated in the future was not made by this service (allow a minute of clock skew).
  if (signedAt > now + 60_000) return { ok: false, reason: "not yet valid" };

  let expected: string;
  try {
    expected = signature({
      host: url.host,
      pathname: url.pathname,
      query: pairs.filter(([name]) => name !== "X-Amz-Signature"),
      secret: config.FILES_SIGNING_SECRET,
      datetime: date,
    });
  } catch {
    return { ok: false, reason: "malformed key" };
  }
  if (!timingSafeEqualStrings(expected, signatureParam)) return { ok: false, reason: "signature mismatch" };

  try {
    const key = url.pathname.slice(FILES_PREFIX.length).split("/").map(decodeURIComponent).join("/");
    return { ok: true, key };
  } catch {
    return { ok: false, reason: "malformed key" };
  }
}
