// The contract half of the end-to-end run (scripts/e2e.sh calls it first):
// 1. lints both served OpenAPI documents with Redocly's recommended rules (redocly.yaml): any
//    error or warning fails;
// 2. checks that the typed clients' types (scripts/generated/, openapi-typescript) match the served
//    documents;
// 3. walks both APIs with typed clients (openapi-fetch), every outcome included: an identified
//    card, an unidentified one and a rejected one reaching the linked partner's view, and the
//    errors; every response is validated against the served document (scripts/lib/contract.ts).
// Usage: DEMO_PARTNER_KEY=… DEMO_PARTNER_KEY_2=… DEMO_PUBLIC_KEY=… node scripts/e2e.ts [base_url]
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import createClient from "openapi-fetch";
import { backOf } from "../test/helpers/card-images.ts";
import type { paths as PartnerPaths } from "./generated/partner-api.d.ts";
import type { paths as PublicPaths } from "./generated/public-api.d.ts";
import { contractValidator, fetchOnce, type Verdict } from "./lib/contract.ts";
import { DEMO_REFERENCE_CARDS, jpeg, photoScene } from "./lib/demo-photos.ts";

const base = (process.argv[2] ?? "http://127.0.0.1:4000").replace(/\/$/, "");
const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} to the value npm start printed`);
  return value;
};
const partnerKey = env("DEMO_PARTNER_KEY");
const partnerKey2 = env("DEMO_PARTNER_KEY_2");
const publicKey = env("DEMO_PUBLIC_KEY");

let passed = 0;
let failed = 0;
function check(name: string, ok: boolean, detail = "") {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok || !detail ? "" : `: ${detail}`}`);
}

// 1. Redocly lint of what the server serves.
const { validator, documents } = await contractValidator(base);
const lintDir = mkdtempSync(join(tmpdir(), "openapi-lint-"));
for (const { name, document } of documents) {
  const file = join(lintDir, `${name}.json`);
  writeFileSync(file, JSON.stringify(document));
  const lint = spawnSync(
    "npx",
    ["--no-install", "redocly", "lint", file, "--config", "redocly.yaml", "--format=json"],
    {
      encoding: "utf8",
    },
  );
  let problems: { severity: string; ruleId: string; message: string }[] = [];
  try {
    problems = JSON.parse(lint.stdout).problems;
  } catch {
    problems = [{ severity: "error", ruleId: "lint-run", message: lint.stderr.slice(0, 500) }];
  }
  const errors = problems.filter((p) => p.severity === "error").length;
  const warnings = problems.filter((p) => p.severity === "warn").length;
  console.log(`     redocly lint ${name}: ${errors} errors, ${warnings} warnings`);
  for (const problem of problems) console.log(`     ${problem.severity} ${problem.ruleId}: ${problem.message}`);
  check(`redocly lint of the ${name} document: 0 errors, 0 warnings`, problems.length === 0);
}

// 2. The typed clients are generated from these very documents.
const types = spawnSync(process.execPath, ["scripts/openapi-types.ts", base, "--check"], { encoding: "utf8" });
check("the typed clients' types match the served documents", types.status === 0, types.stderr.trim());

// 3. Typed clients; every response goes through the validator.
const verdicts: Verdict[] = [];
const validatingFetch = async (input: Request) => {
  const response = await fetchOnce(input);
  const body = await response.clone().text();
  const verdict = validator.check(input.method, input.url, response.status, response.headers.get("content-type"), body);
  verdicts.push(verdict);
  if (verdict.kind !== "validated") {
    check(`response matches the document: ${verdict.operation}`, false, verdict.problems.join("; ") || verdict.kind);
  }
  return response;
};
const partner = (key?: string) =>
  createClient<PartnerPaths>({
    baseUrl: base,
    fetch: validatingFetch,
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
const publicApi = (key?: string) =>
  createClient<PublicPaths>({
    baseUrl: `${base}/api/public/v1`,
    fetch: validatingFetch,
    headers: key ? { "x-api-key": key } : {},
  });

const p = partner(partnerKey);
const health = await partner().GET("/health");
check("GET /health is ok", health.data?.status === "ok");
const account = await p.GET("/v1/account");
check("the account is a partner's", account.data?.account.role === "partner");
const page = await p.GET("/v1/gradings", { params: { query: { limit: 5 } } });
check("5 gradings on the first page", page.data?.gradings.length === 5);
const firstId = page.data?.gradings[0]?.id ?? "";
const detail = await p.GET("/v1/gradings/{id}", { params: { path: { id: firstId } } });
check("a grading's detail names it", detail.data?.grading.id === firstId);
const cards = await p.GET("/v1/cards", { params: { query: { limit: 5, sort: "player", dir: "asc" } } });
check("cards sorted by player", (cards.data?.cards.length ?? 0) > 0);
const cardId = cards.data?.cards[0]?.user_card_id ?? 0;
const card = await p.GET("/v1/cards/{user_card_id}", { params: { path: { user_card_id: cardId } } });
check("a card's detail has its catalog card", card.data?.card.id === cards.data?.cards[0]?.card_id);
const target = await p.POST("/v1/webhook-targets", {
  body: { outcome: "failure", url: "https://partner.example.com/hooks/e2e" },
});
check("a webhook target is created (camelCase)", typeof target.data?.userId === "number");
const targets = await p.GET("/v1/webhook-targets");
check("and listed", targets.data?.webhook_targets.some((t) => t.id === target.data?.id) === true);
const removed = await p.DELETE("/v1/webhook-targets/{id}", { params: { path: { id: target.data?.id ?? 0 } } });
check("and deleted (204)", removed.response.status === 204);

// Partner errors.
check("no key: 401", (await partner().GET("/v1/gradings")).response.status === 401);
check("unknown key: 401", (await partner("svcp_unknown").GET("/v1/gradings")).response.status === 401);
check("limit=0: 400", (await p.GET("/v1/gradings", { params: { query: { limit: 0 } } })).response.status === 400);
check(
  "a malformed cursor: 400",
  (await p.GET("/v1/gradings", { params: { query: { cursor: "yesterday" } } })).response.status === 400,
);
check(
  "a malformed grading id: 400",
  (await p.GET("/v1/gradings/{id}", { params: { path: { id: "not-a-uuid" } } })).response.status === 400,
);
check(
  "an upper-case grading id is accepted (404 for an unknown one)",
  (await p.GET("/v1/gradings/{id}", { params: { path: { id: "0B5F8A3C-2D7E-4C1A-9F6B-3E8D2A1C7B90" } } })).response
    .status === 404,
);
check(
  "another partner cannot read the grading: 404",
  (await partner(partnerKey2).GET("/v1/gradings/{id}", { params: { path: { id: firstId } } })).response.status === 404,
);

// Public API: every outcome, and the linked partner's view of each.
const pub = publicApi(publicKey);
const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const ohtani = DEMO_REFERENCE_CARDS[0];
if (!ohtani) throw new Error("no demo card");
const unknownScene = { ...photoScene(ohtani), artColor: [20, 150, 90] as const, seed: 9090 };
const unknownFront = jpeg(unknownScene);
const unknownBack = jpeg(backOf(unknownScene));
const submissions = [
  {
    name: "an identified card",
    scene: photoScene(ohtani),
    hints: {},
    expect: 201,
    outcome: "success",
  },
  {
    name: "an unidentified card with declared hints",
    front: unknownFront,
    back: unknownBack,
    hints: { player: "Rookie Nobody", brand: "Bowman", year: "2019", category: "Baseball" },
    expect: 201,
    outcome: "success",
  },
  {
    name: "a rejected submission",
    front: unknownFront,
    back: unknownFront,
    hints: {},
    expect: 422,
    outcome: "failure",
  },
] as const;
for (const submission of submissions) {
  const front = "scene" in submission ? jpeg(submission.scene) : submission.front;
  const back = "scene" in submission ? jpeg(backOf(submission.scene)) : submission.back;
  const ref = `e2e-contract-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const res = await pub.POST("/gradings", {
    body: {
      external_ref: ref,
      front_image: { base64: toBase64(front), content_type: "image/jpeg" },
      back_image: { base64: toBase64(back), content_type: "image/jpeg" },
      card: submission.hints,
    },
  });
  check(`${submission.name}: ${submission.expect}`, res.response.status === submission.expect);
  const gradingId = res.data?.grading_id ?? (res.error as { grading_id?: string } | undefined)?.grading_id ?? "";
  if (res.data?.certificate) {
    const value = res.data.certificate.estimated_value;
    check(
      `${submission.name}: estimated_value has numbers and a basis`,
      [value.low, value.mid, value.high].every((n) => typeof n === "number") && typeof value.basis === "string",
    );
    const number = res.data.certificate.certificate_number;
    const certificate = await pub.GET("/certificates/{number}", { params: { path: { number } } });
    check(`${submission.name}: its certificate is served`, certificate.data?.certificate.certificate_number === number);
  }
  const polled = await pub.GET("/gradings/{id}", { params: { path: { id: gradingId } } });
  check(`${submission.name}: polling shows the settled grading`, polled.data?.grading_id === gradingId);
  const found = await pub.GET("/gradings", { params: { query: { external_ref: ref } } });
  check(`${submission.name}: found by external_ref`, found.data?.gradings[0]?.grading_id === gradingId);
  const view = await p.GET("/v1/gradings/{id}", { params: { path: { id: gradingId } } });
  check(
    `${submission.name}: the linked partner sees it (${submission.outcome})`,
    view.data?.grading.outcome === submission.outcome,
  );
  if (submission.expect === 422)
    check(`${submission.name}: no grade in the partner view`, view.data?.user_card_grade === null);
  if (submission.name.startsWith("an unidentified"))
    check(`${submission.name}: card null in the partner view`, view.data?.card === null);
  if (submission.expect === 201) {
    // The damage reports are drawn after the response; the grade run names them once stored.
    let reports = view.data?.user_card_grade;
    for (let i = 0; i < 50 && !reports?.damage_report_front_url; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reports = (await p.GET("/v1/gradings/{id}", { params: { path: { id: gradingId } } })).data?.user_card_grade;
    }
    const types = await Promise.all(
      [reports?.damage_report_front_url, reports?.damage_report_back_url].map(async (url) =>
        url ? (await fetch(url)).headers.get("content-type") : null,
      ),
    );
    check(
      `${submission.name}: both damage reports are served as PNG within 5 s`,
      types.every((type) => type === "image/png"),
    );
  }
  const other = await partner(partnerKey2).GET("/v1/gradings/{id}", { params: { path: { id: gradingId } } });
  check(`${submission.name}: another partner gets 404`, other.response.status === 404);
}

// Public errors.
check(
  "no x-api-key: 401",
  (await publicApi().GET("/certificates/{number}", { params: { path: { number: "1234567897" } } })).response.status ===
    401,
);
check(
  "an unknown key: 401",
  (await publicApi("svck_unknown_key").GET("/certificates/{number}", { params: { path: { number: "1234567897" } } }))
    .response.status === 401,
);
check(
  "a wrong check digit: 400",
  (await pub.GET("/certificates/{number}", { params: { path: { number: "1234567890" } } })).response.status === 400,
);
check(
  "an unknown certificate: 404",
  (await pub.GET("/certificates/{number}", { params: { path: { number: "1234567897" } } })).response.status === 404,
);
const bidi = await pub.POST("/gradings", {
  body: {
    external_ref: "order\u202E1",
    front_image: { base64: toBase64(unknownFront) },
    back_image: { base64: toBase64(unknownBack) },
  },
});
check("a bidi override in external_ref: 400", bidi.response.status === 400);

const validated = verdicts.filter((v) => v.kind === "validated").length;
console.log(`\n${validated} of ${verdicts.length} responses validated against the served documents`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
