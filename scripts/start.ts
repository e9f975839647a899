// `npm start`: local development on http://localhost:4000 with seeded demo data.
// 1. writes .dev.vars with local settings and a random signing secret (once);
// 2. applies the D1 migrations to the local database;
// 3. seeds the demo data unless it is there, writes the demo photos, and prints the demo keys;
// 4. runs `wrangler dev` until stopped; on a fresh seed it first imports the demo catalog's
//    reference images through the operator API (the path an operator uses), then prints a ready line.
// Extra arguments go to `wrangler dev`; `--persist-to <dir>` also moves the migrated and seeded
// local state (the benchmark uses its own directory so it cannot use up the demo key's quota).
import { spawn, spawnSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getPlatformProxy } from "wrangler";
import { encryptSecret } from "../src/webhooks/secret-box.ts";
import {
  DEMO_EMAIL,
  type DemoBindings,
  demoPartnerKey,
  demoPublicKey,
  demoWebhookSecret,
  seedDemoData,
} from "./lib/demo-data.ts";
import { DEMO_REFERENCE_CARDS, demoPhotoFiles } from "./lib/demo-photos.ts";
import { readDevVar } from "./lib/dev-vars.ts";

const DEV_VARS = ".dev.vars";
const DEMO_PHOTOS = ".wrangler/demo-photos";
const DEMO_WEBHOOK_URL = process.env.DEMO_WEBHOOK_URL ?? "http://127.0.0.1:4900/webhooks";
const SEED_FILE = ".wrangler/demo-seed";

function ensureDevVars(): void {
  const wanted: Record<string, () => string> = {
    ALLOW_HTTP_WEBHOOKS: () => "true",
    PRIVATE_HOSTS_ALLOWED: () => "127.0.0.1,localhost",
    FILES_SIGNING_SECRET: () => randomBytes(32).toString("hex"),
    ADMIN_TOKEN: () => randomBytes(24).toString("hex"),
    SECRETS_KEY: () => randomBytes(32).toString("hex"),
    // Single-quoted: the value is JSON (dotenv keeps a single-quoted value as written).
    ATTESTATION_SIGNING_KEY: () =>
      `'${JSON.stringify(generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }))}'`,
  };
  // Settings added since a developer's .dev.vars was written are appended; existing ones stay.
  const missing = Object.entries(wanted).filter(([name]) => readDevVar(name, DEV_VARS) === undefined);
  if (missing.length === 0) return;
  const header = existsSync(DEV_VARS) ? "" : "# Local development settings, written by `npm start`. Not committed.\n";
  const lines = missing.map(([name, value]) => `${name}=${value()}`).join("\n");
  writeFileSync(
    DEV_VARS,
    `${existsSync(DEV_VARS) ? readFileSync(DEV_VARS, "utf8").replace(/\n?$/, "\n") : header}${lines}\n`,
  );
}

function demoSeed(): string {
  if (existsSync(SEED_FILE)) return readFileSync(SEED_FILE, "utf8").trim();
  mkdirSync(".wrangler", { recursive: true });
  const seed = randomBytes(32).toString("hex");
  writeFileSync(SEED_FILE, seed);
  return seed;
}

function wrangler(args: string[]): void {
  const result = spawnSync("npx", ["wrangler", ...args], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const devArgs = process.argv.slice(2);
const persistIndex = devArgs.indexOf("--persist-to");
const persistTo = persistIndex >= 0 ? devArgs[persistIndex + 1] : undefined;

ensureDevVars();
wrangler(["d1", "migrations", "apply", "DB", "--local", ...(persistTo ? ["--persist-to", persistTo] : [])]);

const seed = demoSeed();
// Seeding needs only D1 and R2. A config with just those two (same database id and bucket, so the
// same local state) keeps the platform proxy from warning about the KeyQuota class and the secrets.
const seedConfig = ".wrangler/seed.wrangler.toml";
writeFileSync(
  seedConfig,
  readFileSync("wrangler.toml", "utf8")
    .split(/\n(?=\[)/)
    .filter((section) => !/^\[\[?(durable_objects|migrations|secrets)/.test(section))
    .join("\n")
    .replace(/^main = .*$/m, "")
    .replace(/^migrations_dir = "migrations"$/m, 'migrations_dir = "../migrations"'),
);
const proxy = await getPlatformProxy<DemoBindings>({
  configPath: seedConfig,
  persist: persistTo ? { path: `${persistTo}/v3` } : true,
});
let referencesMissing: number[] = [];
try {
  const existing = await proxy.env.DB.prepare("SELECT id FROM dashboard_accounts WHERE email = ?")
    .bind(DEMO_EMAIL)
    .first();
  if (existing) {
    console.log("Demo data already present.");
  } else {
    console.log("Seeding demo data…");
    await seedDemoData(proxy.env, seed, new URL(DEMO_WEBHOOK_URL).origin);
  }
  // The demo client's webhook (docs/decisions.md §3): a receiver on this machine, its secret derived from the
  // seed and encrypted with this checkout's SECRETS_KEY (rewritten on every start, so a new
  // SECRETS_KEY or DEMO_WEBHOOK_URL takes effect).
  const secretsKey = readDevVar("SECRETS_KEY");
  if (secretsKey) {
    await proxy.env.DB.prepare("UPDATE api_clients SET webhook_url = ?, webhook_secret_encrypted = ? WHERE id = 1")
      .bind(DEMO_WEBHOOK_URL, await encryptSecret(secretsKey, await demoWebhookSecret(seed)))
      .run();
  }
  const withReference = await proxy.env.DB.prepare(
    "SELECT id FROM catalog_cards WHERE reference_hash IS NOT NULL",
  ).all<{ id: number }>();
  const present = new Set(withReference.results.map((row) => row.id));
  referencesMissing = DEMO_REFERENCE_CARDS.map((card) => card.catalogId).filter((id) => !present.has(id));
} finally {
  await proxy.dispose();
}

const photoFiles = existsSync(join(DEMO_PHOTOS, "slab-back.jpg")) ? null : demoPhotoFiles();
if (photoFiles) {
  mkdirSync(DEMO_PHOTOS, { recursive: true });
  for (const [name, bytes] of photoFiles) writeFileSync(join(DEMO_PHOTOS, name), bytes);
}

console.log("");
console.log(`DEMO_PARTNER_KEY=${await demoPartnerKey(seed, "demo-partner-1")}`);
console.log(`DEMO_PARTNER_KEY_2=${await demoPartnerKey(seed, "demo-partner-2")}`);
console.log(`DEMO_PUBLIC_KEY=${(await demoPublicKey(seed)).key}`);
const adminToken = readDevVar("ADMIN_TOKEN");
if (adminToken) console.log(`ADMIN_TOKEN=${adminToken}`);
console.log(`DEMO_WEBHOOK_SECRET=${await demoWebhookSecret(seed)}`);
console.log(`DEMO_PHOTOS=${DEMO_PHOTOS}`);
console.log("");

const dev = spawn("npx", ["wrangler", "dev", ...devArgs], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));

const portIndex = devArgs.indexOf("--port");
const base = `http://127.0.0.1:${portIndex >= 0 ? devArgs[portIndex + 1] : "4000"}`;
await waitForHealth(base);
if (referencesMissing.length > 0 && adminToken) await importDemoReferences(base, adminToken, referencesMissing);
console.log(`Ready: ${base} (demo catalog with reference images for ${DEMO_REFERENCE_CARDS.length} cards).`);

async function waitForHealth(url: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  console.error(`${url}/health did not answer within 60 s.`);
}

/** Reference scans of the demo cards, imported like an operator would (PUT …/reference-image). */
async function importDemoReferences(url: string, token: string, catalogIds: number[]): Promise<void> {
  for (const card of DEMO_REFERENCE_CARDS.filter((c) => catalogIds.includes(c.catalogId))) {
    const bytes = readFileSync(join(DEMO_PHOTOS, `${card.slug}-reference.jpg`));
    const res = await fetch(`${url}/admin/v1/catalog-cards/${card.catalogId}/reference-image`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ reference_image: { base64: bytes.toString("base64") } }),
    });
    if (!res.ok) console.error(`Importing the ${card.slug} reference failed: ${res.status} ${await res.text()}`);
  }
}
