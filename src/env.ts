import { z } from "@hono/zod-openapi";
import type { Database } from "./db/client";

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
    // With all three, presigned URLs point at R2's S3 endpoint (DESIGN §6).
    R2_ACCOUNT_ID: z.string().min(1).optional(),
    R2_ACCESS_KEY_ID: z.string().min(1).optional(),
    R2_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    // Without R2 credentials, URLs point at this Worker's /files route, signed with this secret.
    FILES_SIGNING_SECRET: z.string().min(16).optional(),
    // The grading engine (DESIGN §5): the built-in one, or a model hosted at GRADING_ENGINE_URL.
    GRADING_ENGINE: z.enum(["builtin", "http"]).default("builtin"),
    GRADING_ENGINE_URL: z.string().url().optional(),
    GRADING_ENGINE_TOKEN: z.string().min(1).optional(),
    GRADING_ENGINE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(30),
    // After revoking a certificate its cache entry is purged again this much later (see admin/clients.ts).
    CACHE_REPURGE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
    // The operator API (/admin/v1) answers 404 everywhere unless this secret is set.
    ADMIN_TOKEN: z.string().min(16).optional(),
    // Public certificate pages live at PUBLIC_BASE_URL/c/{number}; the request's origin when unset.
    PUBLIC_BASE_URL: z.string().url().optional(),
    // The certificate's pipeline.graded_by.
    GRADED_BY: z.string().min(1).default("SVC Grading"),
    // POST /gradings answers 202 `processing` when the grade takes longer than this (DESIGN §4).
    SUBMISSION_WAIT_SECONDS: z.coerce.number().min(0.1).max(300).default(60),
    // Encrypts webhook signing secrets at rest (AES-GCM; DESIGN §8). Needed to give a client a webhook.
    SECRETS_KEY: z.string().min(32).optional(),
    // The Ed25519 private JWK that signs certificate attestations until the operator rotates
    // (src/attestation/keys.ts). `npm start` writes one to .dev.vars; the tests pin one.
    ATTESTATION_SIGNING_KEY: z.string().min(1).optional(),
    // Webhook retries wait 1, 60, 360, 1440, 3600, 7200, 7200 times this (5 s → 5 s, 5 min, 30 min, 2 h,
    // 5 h, 10 h, 10 h; DESIGN §4), ±10 % jitter. Shortened only to test the schedule end to end.
    WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().min(0.01).max(60).default(5),
    WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(30).default(10),
    // Image URLs are fetched within this time (DESIGN §4: 10 s).
    IMAGE_FETCH_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(60).default(10),
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
  return config;
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
    partner: PartnerPrincipal;
    client: PublicPrincipal;
    /** The quota unit this request used, so a rejected submission can give it back. */
    quota: { key: string; windowStart: number };
  };
}
