import { AwsV4Signer } from "aws4fetch";
import { timingSafeEqualStrings } from "../auth/api-keys";
import type { Config } from "../env";

// Presigned image URLs (DESIGN §6): AWS SigV4 query signing. With R2 S3 credentials the URL
// points at R2's S3 endpoint; without them at this Worker's /files route, which checks the same
// signature against FILES_SIGNING_SECRET and streams from the R2 binding.

const LOCAL_ACCESS_KEY_ID = "svc-files";
export const FILES_PREFIX = "/files/";
// Derived SigV4 signing keys, reused for the day they are valid (saves four HMACs per URL).
const signingKeyCache = new Map<string, ArrayBuffer>();

interface Signing {
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
}

function signingFor(config: Config, origin: string, key: string): Signing {
  const encodedKey = key.split("/").map(encodeURIComponent).join("/");
  if (config.R2_ACCOUNT_ID && config.R2_ACCESS_KEY_ID && config.R2_SECRET_ACCESS_KEY) {
    return {
      url: `https://${config.R2_ACCOUNT_ID}.r2.cloudflarestorage.com/${config.R2_BUCKET_NAME}/${encodedKey}`,
      accessKeyId: config.R2_ACCESS_KEY_ID,
      secretAccessKey: config.R2_SECRET_ACCESS_KEY,
    };
  }
  if (!config.FILES_SIGNING_SECRET) {
    throw new Error("Neither R2 S3 credentials nor FILES_SIGNING_SECRET is configured; cannot presign image URLs.");
  }
  return {
    url: `${origin}${FILES_PREFIX}${encodedKey}`,
    accessKeyId: LOCAL_ACCESS_KEY_ID,
    secretAccessKey: config.FILES_SIGNING_SECRET,
  };
}

function amzDate(now: number): string {
  return new Date(now).toISOString().replace(/[:-]|\.\d{3}/g, "");
}

/** A GET URL for the R2 object `key`, valid for `ttlSeconds` (PRESIGNED_URL_TTL_SECONDS) from `now`. */
export async function presignImageUrl(
  config: Config,
  origin: string,
  key: string,
  now = Date.now(),
  ttlSeconds = config.PRESIGNED_URL_TTL_SECONDS,
): Promise<string> {
  const signing = signingFor(config, origin, key);
  const url = new URL(signing.url);
  url.searchParams.set("X-Amz-Expires", String(ttlSeconds));
  const signer = new AwsV4Signer({
    url: url.toString(),
    method: "GET",
    accessKeyId: signing.accessKeyId,
    secretAccessKey: signing.secretAccessKey,
    service: "s3",
    region: "auto",
    signQuery: true,
    datetime: amzDate(now),
    cache: signingKeyCache,
  });
  const signed = await signer.sign();
  return signed.url.toString();
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

/**
 * Checks a request to the local /files route: a SigV4 query signature by FILES_SIGNING_SECRET over
 * this exact URL, not expired. Any change to the path or query invalidates the signature.
 */
export async function verifyFilesUrl(config: Config, requestUrl: string, now = Date.now()): Promise<FilesVerdict> {
  if (!config.FILES_SIGNING_SECRET) return { ok: false, reason: "local file signing is not configured" };
  const url = new URL(requestUrl);
  const params = url.searchParams;
  const signature = params.get("X-Amz-Signature");
  const date = params.get("X-Amz-Date");
  const expires = params.get("X-Amz-Expires");
  const credential = params.get("X-Amz-Credential");
  if (!signature || !date || !expires || !credential) return { ok: false, reason: "missing signature parameters" };
  if (!/^\d{8}T\d{6}Z$/.test(date) || !/^\d{1,6}$/.test(expires))
    return { ok: false, reason: "malformed signature parameters" };
  if (!credential.startsWith(`${LOCAL_ACCESS_KEY_ID}/`)) return { ok: false, reason: "unknown credential" };

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

  const unsigned = new URL(url.toString());
  unsigned.searchParams.delete("X-Amz-Signature");
  const signer = new AwsV4Signer({
    url: unsigned.toString(),
    method: "GET",
    accessKeyId: LOCAL_ACCESS_KEY_ID,
    secretAccessKey: config.FILES_SIGNING_SECRET,
    service: "s3",
    region: "auto",
    signQuery: true,
    datetime: date,
    cache: signingKeyCache,
  });
  const signed = await signer.sign();
  // The signer may have added or normalised parameters; the URL must be exactly what it signs.
  const expected = signed.url.searchParams.get("X-Amz-Signature") ?? "";
  const sameQuery = sortedQueryWithoutSignature(signed.url) === sortedQueryWithoutSignature(url);
  if (!sameQuery || !timingSafeEqualStrings(expected, signature)) return { ok: false, reason: "signature mismatch" };

  const rawKey = url.pathname.slice(FILES_PREFIX.length);
  let key: string;
  try {
    key = rawKey.split("/").map(decodeURIComponent).join("/");
  } catch {
    return { ok: false, reason: "malformed key" };
  }
  return { ok: true, key };
}

function sortedQueryWithoutSignature(url: URL): string {
  const entries = [...url.searchParams.entries()].filter(([name]) => name !== "X-Amz-Signature");
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.map(([k, v]) => `${k}=${v}`).join("&");
}
