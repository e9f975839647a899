// `npm run admin -- <command> [--flag value …]`: the operator CLI over /admin/v1 of a running
// instance. Defaults: --url http://localhost:4000 (or ADMIN_URL), --token ADMIN_TOKEN from the
// environment or from .dev.vars (what `npm start` uses).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { readDevVar } from "./lib/dev-vars.ts";

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
    default:
      return fail(`Unknown command ${command}.\n\n${USAGE}`);
  }
}

const { path, method = "POST", body } = request();
let response: Response;
try {
  response = await fetch(`${base}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
} catch {
  fail(`Could not reach ${base}; is the server running (npm start)?`);
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
