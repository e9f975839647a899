import { z } from "@hono/zod-openapi";
import type { D1Connection, Database } from "./db/client";
import { ApiError } from "./errors/api-error";
import { logEvent } from "./errors/log";

/**
 * Secrets each switch one surface on. A missing or too-short secret turns only that surface off
 * (with one log line when the configuration is first read) instead of failing every request.
 */
export const SECRET_RULES = [
  { name: "ADMIN_TOKEN", minLength: 16, surface: "the operator API (/admin/v1) answers 404" },
  { name: "SECRETS_KEY", minLength: 32, surface: "webhook secrets cannot be stored or used to sign deliveries" },
  {
    name: "FILES_SIGNING_SECRET",
    minLength: 16,
    surface: "image URLs cannot be signed for the /files route (unless R2 S3 credentials are set)",
  },
  { name: "CLOUDFLARE_API_TOKEN", minLength: 20, surface: "revocation is not purged through the cache purge API" },
] as const;

type SecretName = (typeof SECRET_RULES)[number]["name"];

/** A secret shorter than `minLength` counts as absent (see SECRET_RULES). */
const secret = (minLength: number) =>
  z
    .string()
    .optional()
    .transform((value) => (value !== undefined && value.length >= minLength ? value : undefined));

/** Settings read from `[vars]` and secrets, parsed once per environment object. */
const configSchema = z
  .object({
    PRESIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(1).max(604_800).default(300),
    PARTNER_HOURLY_QUOTA: z.coerce.number().int().min(1).default(3600),
    KEY_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
    ALLOW_HTTP_WEBHOOKS: z
      .enum(["true", "false", ""])
      .default("false")
      .transform((value) => value === "true"),
    PRIVATE_HOSTS_ALLOWED: z
      .string()
      .default("")
      .transform((value) =>
        value
          .split(",")
          .map((host) => host.trim().toLowerCase())
          .filter((host) => host.length > 0),
      ),
    R2_BUCKET_NAME: z.string().min(1).default("card-grading-images"),
    // With all three, presigned URLs point at R2's S3 endpoint (docs/decisions.md §6).
    R2_ACCOUNT_ID: z.string().min(1).optional(),
    R2_ACCESS_KEY_ID: z.string().min(1).optional(),
    R2_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    // Without R2 credentials, URLs point at this Worker's /files route, signed with this secret.
    FILES_SIGNING_SECRET: secret(16),
    // The grading engine (docs/decisions.md §5): the built-in one, or a model hosted at GRADING_ENGINE_URL.
    GRADING_ENGINE: z.enum(["builtin", "http"]).default("builtin"),
    GRADING_ENGINE_URL: z.string().url().optional(),
    GRADING_ENGINE_TOKEN: z.string().min(1).optional(),
    GRADING_ENGINE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(30),
    // After revoking a certificate its cache entry is purged again this much later
    // (see src/admin/certificates/revoke.ts).
    CACHE_REPURGE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
    // The operator API (/admin/v1) answers 404 everywhere unless this secret is set.
    ADMIN_TOKEN: secret(16),
    // Public certificate pages live at PUBLIC_BASE_URL/c/{number}; the request's origin when unset.
    PUBLIC_BASE_URL: z.string().url().optional(),
    // The certificate's pipeline.graded_by.
    GRADED_BY: z.string().min(1).default("SVC Grading"),
    // POST /gradings answers 202 `processing` when the grade takes longer than this (docs/decisions.md §4).
    SUBMISSION_WAIT_SECONDS: z.coerce.number().min(0.1).max(300).default(60),
    // Encrypts webhook signing secrets at rest (AES-GCM; docs/decisions.md §8). Needed to give a client a webhook.
    SECRETS_KEY: secret(32),
    // The Ed25519 private JWK that signs certificate attestations until the operator rotates
    // (src/attestation/keys.ts). `npm start` writes one to .dev.vars; the tests pin one.
    ATTESTATION_SIGNING_KEY: z.string().min(1).optional(),
    // Webhook retries wait 1, 60, 360, 1440, 3600, 7200, 7200 times this (5 s → 5 s, 5 min, 30 min, 2 h,
    // 5 h, 10 h, 10 h; docs/decisions.md §4), ±10 % jitter. Shortened only to test the schedule end to end.
    WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().min(0.01).max(60).default(5),
    WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(30).default(10),
    // Image URLs are fetched within this time (docs/decisions.md §4: 10 s).
    IMAGE_FETCH_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(60).default(10),
    // Rejected submissions are not billed; this many per client and hourly quota window also get
    // their quota unit back. Past it, rejections count against the quota (429 as usual).
    REJECTION_REFUND_HOURLY_ALLOWANCE: z.coerce.number().int().min(0).max(100_000).default(20),
    // Housekeeping deletes a rejected submission's photos from R2 this many days after it was made.
    REJECTED_IMAGE_RETENTION_DAYS: z.coerce.number().min(0).max(3650).default(7),
    // Revocation purges the certificate's cache entries in every data centre through Cloudflare's
    // purge API when both are set (the token needs Zone › Cache Purge); README "Security".
    CLOUDFLARE_ZONE_ID: z
      .string()
      .regex(/^[0-9a-f]{32}$/)
      .optional()
      .catch(undefined),
    CLOUDFLARE_API_TOKEN: secret(20),
    // Outbound ports allowed in production (webhook targets, image URLs), comma-separated; empty
    // allows any port. Local development allows any port for PRIVATE_HOSTS_ALLOWED hosts.
    OUTBOUND_PORTS_ALLOWED: z
      .string()
      .default("80,443,8443")
      .transform((value) =>
        value
          .split(",")
          .map((port) => port.trim())
          .filter((port) => port.length > 0)
          .map(Number),
      )
      .pipe(z.array(z.number().int().min(1).max(65_535))),
  })
  .refine((config) => config.GRADING_ENGINE !== "http" || config.GRADING_ENGINE_URL !== undefined, {
    message: "GRADING_ENGINE=http needs GRADING_ENGINE_URL",
    path: ["GRADING_ENGINE_URL"],
  });

export type Config = z.infer<typeof configSchema>;

const parsedConfigs = new WeakMap<object, Config>();

export function loadConfig(env: Env): Config {
  const cached = parsedConfigs.get(env);
  if (cached) return cached;
  const config = configSchema.parse(env);
  parsedConfigs.set(env, config);
  reportDisabledSurfaces(env as unknown as Record<string, unknown>, config);
  return config;
}

const SURFACE_OFF = {
  "image URLs": "Image URLs are unavailable: the service has no FILES_SIGNING_SECRET or R2 credentials configured.",
  "webhook secrets": "Webhook secrets are unavailable: the service has no SECRETS_KEY configured.",
  attestations:
    "Certificate attestations are unavailable: the service has no ATTESTATION_SIGNING_KEY (or, for a rotated key, no SECRETS_KEY) configured.",
} as const;

/** 403 access_denied naming the missing secret: a clear answer instead of a 500 (see SECRET_RULES). */
export function surfaceUnavailable(surface: keyof typeof SURFACE_OFF): ApiError {
  return new ApiError("access_denied", SURFACE_OFF[surface]);
}

/** Throws surfaceUnavailable("image URLs") when image URLs cannot be signed; the rest of the API works. */
export function requireSurface(config: Config, surface: "image URLs"): void {
  const viaR2 = config.R2_ACCOUNT_ID && config.R2_ACCESS_KEY_ID && config.R2_SECRET_ACCESS_KEY;
  if (!viaR2 && !config.FILES_SIGNING_SECRET) throw surfaceUnavailable(surface);
}

/** One log line per secret that is missing or too short, naming the surface it turns off (never the value). */
function reportDisabledSurfaces(raw: Record<string, unknown>, config: Config): void {
  for (const rule of SECRET_RULES) {
    if (config[rule.name as SecretName] !== undefined) continue;
    const given = raw[rule.name];
    // Purging is optional: its absence is reported only where a purge is skipped.
    if (rule.name === "CLOUDFLARE_API_TOKEN" && given === undefined) continue;
    const problem =
      typeof given === "string" && given.length > 0 ? `is shorter than ${rule.minLength} characters` : "is not set";
    logEvent("warn", { config: rule.name, problem: `${rule.name} ${problem}: ${rule.surface}` });
  }
}

/** The caller of the Partner Read API, resolved from its Bearer key. */
export interface PartnerPrincipal {
  keyId: number;
  keyName: string;
  keyStart: string;
  keyCreatedAt: string;
  keyLastUsedAt: string | null;
  accountId: number;
  accountEmail: string;
  accountRole: "partner";
  accountCreatedAt: string;
  userId: number;
}

/** The caller of the Public Grading Submission API, resolved from its `x-api-key`. */
export interface PublicPrincipal {
  /** Row id of the key (the quota is per key). */
  apiKeyId: number;
  clientId: number;
  clientName: string;
  userId: number | null;
  hourlyQuota: number;
}

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    config: Config;
    db: Database;
    /** The connection `db` runs on, for the few raw statements drizzle cannot express. */
    d1: D1Connection;
    partner: PartnerPrincipal;
    client: PublicPrincipal;
    /** The quota unit this request used, so a rejected submission can give it back. */
    quota: { key: string; windowStart: number };
  };
}
