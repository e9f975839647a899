// A webhook receiver to run beside `npm start`: verifies each public event's signature as the README
// ("Receiving webhooks") says (with the project's own verifyWebhookSignature), answers quickly, and
// prints one JSON line per delivery. Partner notifications (unsigned) are printed too.
//
//   node scripts/webhook-receiver.ts [--port 4900] [--secret whsec_…] [--fail-first N] [--log file]
//
// --secret defaults to DEMO_WEBHOOK_SECRET (printed by npm start) or WEBHOOK_SECRET. --fail-first N
// answers 500 to the first N attempts of every delivery (to watch retries). Listens on 127.0.0.1.
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { verifyWebhookSignature } from "../src/webhooks/signature.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "4900" },
    secret: { type: "string" },
    "fail-first": { type: "string", default: "0" },
    log: { type: "string" },
  },
});
const secret = values.secret ?? process.env.DEMO_WEBHOOK_SECRET ?? process.env.WEBHOOK_SECRET;
if (!secret) {
  console.error("Pass --secret or set DEMO_WEBHOOK_SECRET (printed by npm start).");
  process.exit(2);
}
const failFirst = Number(values["fail-first"]);
const seen = new Map<string, number>();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", async () => {
    // The raw bytes, exactly as sent: the signature covers them, not a re-serialisation.
    const body = Buffer.concat(chunks).toString("utf8");
    const header = (name: string) => {
      const value = req.headers[name];
      return typeof value === "string" ? value : null;
    };
    const deliveryId = header("svc-delivery-id") ?? "";
    const attempt = (seen.get(deliveryId) ?? 0) + 1;
    seen.set(deliveryId, attempt);
    const signed = header("svc-signature") !== null;
    const verdict = signed
      ? await verifyWebhookSignature({
          secret,
          timestamp: header("svc-timestamp"),
          signature: header("svc-signature"),
          body,
        })
      : null;
    let status = 200;
    if (verdict && !verdict.ok) status = 401;
    else if (attempt <= failFirst) status = 500;
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ received: status === 200 }));
    let parsed: unknown = body;
    try {
      parsed = JSON.parse(body);
    } catch {
      // not JSON: log as text
    }
    const line = JSON.stringify({
      received_at: new Date().toISOString(),
      path: req.url,
      event: header("svc-event"),
      delivery_id: deliveryId,
      attempt,
      signature: verdict === null ? "none" : verdict.ok ? "valid" : `invalid (${verdict.reason})`,
      answered: status,
      body: parsed,
    });
    console.log(line);
    if (values.log) appendFileSync(values.log, `${line}\n`);
  });
});
server.listen(Number(values.port), "127.0.0.1", () => {
  console.error(`Webhook receiver on http://127.0.0.1:${values.port} (fail first ${failFirst} attempts per delivery)`);
});
