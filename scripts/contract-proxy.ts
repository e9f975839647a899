// A validating proxy for the end-to-end walkthrough: forwards every request to the server and holds
// every answer against the OpenAPI documents the server serves (scripts/lib/contract.ts), so the
// curl calls of scripts/e2e.sh are checked without each one saying how.
//   node scripts/contract-proxy.ts --upstream http://127.0.0.1:4000 --report /tmp/contract.json
// Listens on a free loopback port and prints `CONTRACT_PROXY=http://127.0.0.1:<port>`; on SIGTERM
// it writes the report (validated, mismatches, undocumented) and exits.
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { contractValidator, fetchOnce, type Verdict } from "./lib/contract.ts";

const { values } = parseArgs({
  options: {
    upstream: { type: "string", default: "http://127.0.0.1:4000" },
    report: { type: "string", default: "contract-report.json" },
  },
});
const upstream = new URL(values.upstream);
const { validator } = await contractValidator(upstream.origin);
const verdicts: Verdict[] = [];

// Hop-by-hop headers and the ones the proxy recomputes.
const DROPPED = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
  "host",
]);

const server = createServer(async (request, response) => {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (DROPPED.has(name) || name === "accept-encoding" || value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const url = new URL(request.url ?? "/", upstream);
    const method = request.method ?? "GET";
    const answer = await fetchOnce(
      new Request(url, {
        method,
        headers,
        body: chunks.length > 0 && method !== "GET" && method !== "HEAD" ? Buffer.concat(chunks) : undefined,
        redirect: "manual",
      }),
    );
    const bytes = Buffer.from(await answer.arrayBuffer());
    const contentType = answer.headers.get("content-type");
    // Text bodies (application/jose is a compact JWS) are validated; binary ones (images) are not.
    const isText = /json|text|svg|xml|jose/.test(contentType ?? "");
    const verdict = validator.check(method, url.href, answer.status, contentType, isText ? bytes.toString("utf8") : "");
    verdicts.push(verdict);
    if (verdict.kind === "mismatch") console.error(`MISMATCH ${verdict.operation}: ${verdict.problems.join("; ")}`);
    const outgoing: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!DROPPED.has(name)) outgoing[name] = value;
    });
    response.writeHead(answer.status, outgoing);
    response.end(bytes);
  } catch (error) {
    verdicts.push({ kind: "mismatch", operation: `${request.method} ${request.url}`, problems: [String(error)] });
    response.writeHead(502, { "content-type": "text/plain" });
    response.end("contract proxy: upstream failed");
  }
});

function writeReport() {
  const count = (kind: Verdict["kind"]) => verdicts.filter((verdict) => verdict.kind === kind).length;
  const report = {
    responses: verdicts.length,
    validated: count("validated"),
    mismatches: verdicts.filter((verdict) => verdict.kind === "mismatch"),
    undocumented: [...new Set(verdicts.filter((v) => v.kind === "undocumented").map((v) => v.operation))],
  };
  writeFileSync(values.report, `${JSON.stringify(report, null, 2)}\n`);
}

process.on("SIGTERM", () => {
  writeReport();
  server.close();
  process.exit(0);
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") console.log(`CONTRACT_PROXY=http://127.0.0.1:${address.port}`);
});
