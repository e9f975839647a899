// `npm run admin -- <command> [--flag value …]`: the operator CLI over /admin/v1 of a running
// instance. Defaults: --url http://localhost:4000 (or ADMIN_URL), --token ADMIN_TOKEN from the
// environment or from .dev.vars (what `npm start` uses).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { readDevVar } from "./lib/dev-vars.ts";
import { verifyAttestation } from "./lib/verify-attestation.ts";

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-user
  create-partner-account --user <id> --email <email> [--role partner|member]
  issue-partner-key      --account <id> --name <name>          (the key is shown once)
  revoke-partner-key     --id <key id>
  create-client          --name <name> [--user <id>] [--quota <requests per hour>]
  issue-client-key       --client <id>                          (the key is shown once)
  revoke-client-key      --id <key id>
  revoke-certificate     --number <certificate number>
  import-catalog-card    --category <c> --player <p> --brand <b> --year <y> --set <s>
                         --card-number <n> --value <cents> --image <file> [--team <t>] [--variant <v>]
  set-reference-image    --id <catalog card id> --image <file>  (replaces the image and its hash)
  merge-catalog-card     --id <unverified entry id> --into <verified catalog card id>
                         (the users' cards and gradings follow; the entry is deleted)
  backfill               [--limit <n>]                          (grading sessions for past submissions of
                                                                 linked clients, no notifications; repeats
                                                                 until nothing is left)
  set-webhook            --client <id> --url <https URL | none>  (a first secret is shown once)
  rotate-webhook-secret  --client <id>                          (new secret shown once; old one valid 24 h)
  deliveries             [--status pending|delivered|failed] [--client <id>] [--user <id>]
                         [--event <name>] [--grading <id>] [--since <ISO time>] [--until <ISO time>] [--limit <n>]
  delivery               --id <delivery id>                     (with every attempt)
  replay-delivery        --id <delivery id>
  replay-failed          --client <id> --since <ISO time>        (every failed delivery of the client since then)
  ingest-grading         --user <id> --card <catalog card id> --outcome success|failure
                         [--grades overall,centering,corners,edges,surface] [--front <file>] [--back <file>]
  attestation-keys                                              (the signing keys, public parts only)
  rotate-attestation-key                                        (a new current key; the old one stays published)
  resubmissions          --client <id>                          (the client's resubmitted cards and their streaks)

  verify                 --attestation <file> [--jwks <file>] [--front <file>] [--back <file>] [--check-status]
                         Verifies a certificate's signed attestation (the compact JWS from its page or
                         from /api/public/v1/certificates/{number}/attestation) with the JWK Set alone:
                         offline when --jwks is a saved /.well-known/jwks.json, otherwise fetched from
                         --url. --front/--back check photos against the attested SHA-256; --check-status
                         asks --url whether the certificate was revoked since. No admin token needed.

Options:
  --url <base URL>   default http://localhost:4000 (or ADMIN_URL)
  --token <token>    default ADMIN_TOKEN, or the one in .dev.vars
  --help`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: "string" },
    token: { type: "string" },
    help: { type: "boolean" },
    user: { type: "string" },
    email: { type: "string" },
    role: { type: "string" },
    account: { type: "string" },
    name: { type: "string" },
    id: { type: "string" },
    client: { type: "string" },
    quota: { type: "string" },
    number: { type: "string" },
    category: { type: "string" },
    player: { type: "string" },
    brand: { type: "string" },
    year: { type: "string" },
    set: { type: "string" },
    "card-number": { type: "string" },
    value: { type: "string" },
    image: { type: "string" },
    team: { type: "string" },
    variant: { type: "string" },
    status: { type: "string" },
    event: { type: "string" },
    grading: { type: "string" },
    since: { type: "string" },
    until: { type: "string" },
    limit: { type: "string" },
    card: { type: "string" },
    outcome: { type: "string" },
    grades: { type: "string" },
    front: { type: "string" },
    back: { type: "string" },
    into: { type: "string" },
    attestation: { type: "string" },
    jwks: { type: "string" },
    "check-status": { type: "boolean" },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function required(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== "string" || value === "") fail(`Missing --${name}.\n\n${USAGE}`);
  return value;
}

const integer = (name: keyof typeof values) => {
  const value = Number(required(name));
  if (!Number.isInteger(value)) fail(`--${name} must be an integer.`);
  return value;
};

const command = positionals[0];
if (values.help || !command) {
  console.log(USAGE);
  process.exit(command || values.help ? 0 : 1);
}

const base = (values.url ?? process.env.ADMIN_URL ?? "http://localhost:4000").replace(/\/$/, "");

async function getJson(url: string): Promise<unknown> {
  try {
    const response = await fetch(url);
    if (!response.ok) fail(`${url} answered ${response.status}.`);
    return await response.json();
  } catch {
    return fail(`Could not read ${url}.`);
  }
}

/** `verify`: every check printed; exit 1 when one fails. */
async function verify(): Promise<never> {
  const jws = readFileSync(required("attestation"), "utf8");
  const jwks = (
    values.jwks ? JSON.parse(readFileSync(values.jwks, "utf8")) : await getJson(`${base}/.well-known/jwks.json`)
  ) as Parameters<typeof verifyAttestation>[1];
  const images = {
    ...(values.front ? { front: new Uint8Array(readFileSync(values.front)) } : {}),
    ...(values.back ? { back: new Uint8Array(readFileSync(values.back)) } : {}),
  };
  let verified: Awaited<ReturnType<typeof verifyAttestation>>;
  try {
    verified = await verifyAttestation(jws, jwks, images);
  } catch (error) {
    return fail(`NOT VERIFIED: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { certificate } = verified;
  console.log(`signature: valid (EdDSA, key ${verified.kid}, issuer ${verified.issuer})`);
  console.log(
    `certificate ${certificate.number}: overall ${certificate.grade.overall}, issued ${certificate.issued_at}, ${certificate.url}`,
  );
  let ok = true;
  for (const image of verified.images) {
    console.log(
      `${image.face} image: ${image.matches ? "matches" : "DOES NOT MATCH"} the attested SHA-256 (${image.sha256})`,
    );
    ok &&= image.matches;
  }
  if (values["check-status"]) {
    const status = (await getJson(`${base}/c/${certificate.number}/status`)) as {
      status: string;
      revoked_at: string | null;
    };
    console.log(`status at ${base}: ${status.status}${status.revoked_at ? ` since ${status.revoked_at}` : ""}`);
    ok &&= status.status === "live";
  }
  process.exit(ok ? 0 : 1);
}
if (command === "verify") await verify();

const token = values.token ?? process.env.ADMIN_TOKEN ?? readDevVar("ADMIN_TOKEN");
if (!token) fail("No admin token: pass --token, set ADMIN_TOKEN, or run `npm start` once to write .dev.vars.");

function request(): { path: string; method?: string; body?: unknown } {
  switch (command) {
    case "create-user":
      return { path: "/users" };
    case "create-partner-account":
      return {
        path: "/partner-accounts",
        body: { user_id: integer("user"), email: required("email"), ...(values.role ? { role: values.role } : {}) },
      };
    case "issue-partner-key":
      return { path: `/partner-accounts/${integer("account")}/keys`, body: { name: required("name") } };
    case "revoke-partner-key":
      return { path: `/partner-keys/${integer("id")}/revoke` };
    case "create-client":
      return {
        path: "/clients",
        body: {
          name: required("name"),
          ...(values.user ? { user_id: integer("user") } : {}),
          ...(values.quota ? { hourly_quota: integer("quota") } : {}),
        },
      };
    case "issue-client-key":
      return { path: `/clients/${integer("client")}/keys` };
    case "revoke-client-key":
      return { path: `/api-keys/${integer("id")}/revoke` };
    case "revoke-certificate":
      return { path: `/certificates/${required("number")}/revoke` };
    case "import-catalog-card":
      return {
        path: "/catalog-cards",
        body: {
          category: required("category"),
          player_name: required("player"),
          brand: required("brand"),
          year: required("year"),
          set_name: required("set"),
          card_number: required("card-number"),
          svc_value: integer("value"),
          ...(values.team ? { team_name: values.team } : {}),
          ...(values.variant ? { variant: values.variant } : {}),
          reference_image: { base64: readFileSync(required("image")).toString("base64") },
        },
      };
    case "set-reference-image":
      return {
        path: `/catalog-cards/${integer("id")}/reference-image`,
        method: "PUT",
        body: { reference_image: { base64: readFileSync(required("image")).toString("base64") } },
      };
    case "set-webhook": {
      const url = required("url");
      return {
        path: `/clients/${integer("client")}/webhook`,
        method: "PUT",
        body: { url: url === "none" ? null : url },
      };
    }
    case "rotate-webhook-secret":
      return { path: `/clients/${integer("client")}/webhook-secret/rotate` };
    case "deliveries": {
      const query = new URLSearchParams();
      const filters: [string, string | undefined][] = [
        ["status", values.status],
        ["client_id", values.client],
        ["user_id", values.user],
        ["event", values.event],
        ["grading_id", values.grading],
        ["since", values.since],
        ["until", values.until],
        ["limit", values.limit],
      ];
      for (const [name, value] of filters) if (value) query.set(name, value);
      return { path: `/webhook-deliveries${query.size > 0 ? `?${query}` : ""}`, method: "GET" };
    }
    case "delivery":
      return { path: `/webhook-deliveries/${required("id")}`, method: "GET" };
    case "replay-delivery":
      return { path: `/webhook-deliveries/${required("id")}/replay` };
    case "replay-failed":
      return { path: `/clients/${integer("client")}/webhook-deliveries/replay`, body: { since: required("since") } };
    case "merge-catalog-card":
      return { path: `/catalog-cards/${integer("id")}/merge`, body: { into: integer("into") } };
    case "backfill":
      return { path: "/backfill/partner-views", body: values.limit ? { limit: integer("limit") } : {} };
    case "ingest-grading": {
      const grades = values.grades?.split(",").map(Number);
      const names = ["overall", "centering", "corners", "edges", "surface"];
      const image = (file: string | undefined) =>
        file ? { base64: readFileSync(file).toString("base64") } : undefined;
      return {
        path: "/grading-sessions",
        body: {
          user_id: integer("user"),
          card_id: integer("card"),
          outcome: required("outcome"),
          ...(grades ? { grades: Object.fromEntries(names.map((name, i) => [name, grades[i]])) } : {}),
          ...(values.front || values.back ? { images: { front: image(values.front), back: image(values.back) } } : {}),
        },
      };
    }
    case "attestation-keys":
      return { path: "/attestation-keys", method: "GET" };
    case "rotate-attestation-key":
      return { path: "/attestation-keys/rotate" };
    case "resubmissions":
      return { path: `/clients/${integer("client")}/resubmissions`, method: "GET" };
    default:
      return fail(`Unknown command ${command}.\n\n${USAGE}`);
  }
}

const { path, method = "POST", body } = request();
async function send(): Promise<Response> {
  try {
    return await fetch(`${base}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return fail(`Could not reach ${base}; is the server running (npm start)?`);
  }
}
let response = await send();
// The backfill works in bounded batches: call again while it reports more, and while it advances.
for (let round = 0; command === "backfill" && response.ok && round < 1000; round++) {
  const result = (await response.clone().json()) as { written: number; more: boolean };
  if (!result.more || result.written === 0) break;
  console.error(`backfill: ${result.written} written, more to do`);
  response = await send();
}
const text = await response.text();
let output: unknown = text;
try {
  output = JSON.parse(text);
} catch {
  // Not JSON: print as it came.
}
console.log(typeof output === "string" ? output : JSON.stringify(output, null, 2));
if (!response.ok) process.exit(1);
