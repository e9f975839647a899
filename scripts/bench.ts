// `npm run bench`: latency and throughput through `wrangler dev` on this machine. Starts its own
// local stack on 127.0.0.1:4100 (its own state under .wrangler/bench), then:
// - Partner Read API, per endpoint: 20 warm-up requests, 200 sequential (p50 / p95 / max), 400 at
//   concurrency 16 (requests per second);
// - Public API: certificate lookups served from the edge cache vs read from D1 (each certificate's
//   first lookup), beside /health, the same way;
// - POST /gradings end to end for a 2 MP and a 12 MP photo pair (median of 5);
// - settle-to-delivery latency of the grading.completed webhook to a receiver on 127.0.0.1 (20).
// Bounded in count and time; loopback only.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:http";
import { backOf, drawCardScene, encodeJpeg } from "../test/helpers/card-images.ts";
import { benchScene } from "../test/helpers/scene-sets.ts";

const SEQUENTIAL = 200;
const CONCURRENT_TOTAL = 400;
const CONCURRENCY = 16;
const PORT = 4100;

async function startServer(): Promise<{ base: string; key: string; adminToken: string; child: ChildProcess }> {
  const child = spawn(
    "node",
    [
      "scripts/start.ts",
      "--port",
      String(PORT),
      "--persist-to",
      ".wrangler/bench",
      "--var",
      "PARTNER_HOURLY_QUOTA:100000000",
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const base = `http://127.0.0.1:${PORT}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const key = /^DEMO_PARTNER_KEY=(\S+)$/m.exec(output)?.[1];
    const adminToken = /^ADMIN_TOKEN=(\S+)$/m.exec(output)?.[1];
    if (key && adminToken && /^Ready: /m.test(output)) return { base, key, adminToken, child };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`server did not start:\n${output}`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

type Headers = Record<string, string>;
const bearer = (key: string): Headers => ({ authorization: `Bearer ${key}` });

async function timed(url: string, headers: Headers): Promise<number> {
  const start = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (response.status >= 400) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - start;
}

/** `urls(i)` names the i-th request's URL (one URL for all, or a fresh one each time). */
async function bench(
  name: string,
  urls: (i: number) => string,
  headers: Headers,
  counts = { warm: 20, sequential: SEQUENTIAL, concurrent: CONCURRENT_TOTAL },
) {
  let i = 0;
  for (let w = 0; w < counts.warm; w++) await timed(urls(i++), headers);
  const samples: number[] = [];
  for (let n = 0; n < counts.sequential; n++) samples.push(await timed(urls(i++), headers));
  samples.sort((a, b) => a - b);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < counts.concurrent) {
        next++;
        await timed(urls(i++), headers);
      }
    }),
  );
  const rps = counts.concurrent / ((performance.now() - started) / 1000);
  const fmt = (ms: number) => ms.toFixed(1).padStart(7);
  console.log(
    `${name.padEnd(34)} p50 ${fmt(percentile(samples, 50))} ms  p95 ${fmt(percentile(samples, 95))} ms  max ${fmt(samples.at(-1) ?? 0)} ms  ${rps.toFixed(0).padStart(5)} req/s`,
  );
}

async function admin(path: string, body: unknown, token: string, method = "POST"): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}/admin/v1${path}`, {
    method,
    headers: { ...bearer(token), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function submit(
  publicKey: string,
  front: Uint8Array,
  back: Uint8Array,
): Promise<{ ms: number; number: string; gradingId: string; settledAt: string }> {
  const form = new FormData();
  form.set("front_image", new Blob([new Uint8Array(front)], { type: "image/jpeg" }), "front.jpg");
  form.set("back_image", new Blob([new Uint8Array(back)], { type: "image/jpeg" }), "back.jpg");
  const start = performance.now();
  const response = await fetch(`${base}/api/public/v1/gradings`, {
    method: "POST",
    headers: { "x-api-key": publicKey },
    body: form,
  });
  const body = (await response.json()) as {
    grading_id: string;
    settled_at: string;
    certificate?: { certificate_number: string };
  };
  const ms = performance.now() - start;
  if (response.status !== 201 || !body.certificate) throw new Error(`submission answered ${response.status}`);
  return { ms, number: body.certificate.certificate_number, gradingId: body.grading_id, settledAt: body.settled_at };
}

function photoPair(width: number, height: number) {
  const scene = benchScene(width, height);
  return { front: encodeJpeg(drawCardScene(scene), 90), back: encodeJpeg(drawCardScene(backOf(scene)), 90) };
}

const server = await startServer();
const base = server.base;
const key = server.key;
try {
  const gradings = (await (
    await fetch(`${base}/v1/gradings?limit=1`, { headers: { authorization: `Bearer ${key}` } })
  ).json()) as {
    gradings: { id: string; user_card_id: number }[];
  };
  const first = gradings.gradings[0];
  if (!first) throw new Error("no demo gradings");
  console.log(
    `Partner Read API via wrangler dev at ${base} (node ${process.version}, ${SEQUENTIAL} sequential, ${CONCURRENT_TOTAL} at concurrency ${CONCURRENCY})`,
  );
  const auth = bearer(key);
  const same = (url: string) => () => url;
  await bench("GET /health", same(`${base}/health`), auth);
  await bench("GET /v1/account", same(`${base}/v1/account`), auth);
  await bench("GET /v1/gradings", same(`${base}/v1/gradings`), auth);
  await bench("GET /v1/gradings/{id}", same(`${base}/v1/gradings/${first.id}`), auth);
  await bench("GET /v1/cards (25, 50 URLs)", same(`${base}/v1/cards`), auth);
  await bench("GET /v1/cards?q=&sort=grade", same(`${base}/v1/cards?q=a&sort=grade`), auth);
  await bench("GET /v1/cards/{id}", same(`${base}/v1/cards/${first.user_card_id}`), auth);

  // A client of its own with a quota the benchmark cannot use up.
  const client = await admin("/clients", { name: `bench ${Date.now()}`, hourly_quota: 1_000_000 }, server.adminToken);
  const issued = await admin(`/clients/${client.id}/keys`, {}, server.adminToken);
  const publicKey = String(issued.key);

  console.log("\nPOST /gradings end to end (multipart, built-in engine), median of 5 after 1 warm-up:");
  for (const [name, width, height] of [
    ["2 MP pair (1632 × 1224)", 1632, 1224],
    ["12 MP pair (4000 × 3000)", 4000, 3000],
  ] as const) {
    const pair = photoPair(width, height);
    await submit(publicKey, pair.front, pair.back);
    const times: number[] = [];
    for (let n = 0; n < 5; n++) times.push((await submit(publicKey, pair.front, pair.back)).ms);
    times.sort((a, b) => a - b);
    const mb = ((pair.front.length + pair.back.length) / 1024 / 1024).toFixed(1);
    console.log(
      `${name.padEnd(34)} median ${(times[2] ?? 0).toFixed(0).padStart(5)} ms  min ${(times[0] ?? 0).toFixed(0)} ms  max ${(times[4] ?? 0).toFixed(0)} ms  (${mb} MB uploaded)`,
    );
  }

  // Certificates to look up for the first time (read from D1): small photos grade quickly.
  const lookups = { warm: 10, sequential: 100, concurrent: 160 };
  const needed = lookups.warm + lookups.sequential + lookups.concurrent;
  console.log(`\nCertificate lookups (grading ${needed} small cards first)…`);
  const small = photoPair(640, 480);
  const numbers: string[] = [];
  for (let n = 0; n < needed; n += 2) {
    const pair = await Promise.all([
      submit(publicKey, small.front, small.back),
      submit(publicKey, small.front, small.back),
    ]);
    numbers.push(...pair.map((p) => p.number));
  }
  const pub = { "x-api-key": publicKey };
  const lookup = (n: string) => `${base}/api/public/v1/certificates/${n}`;
  await bench("GET /health (same server)", same(`${base}/health`), {}, lookups);
  await bench("certificate, uncached (D1 read)", (i) => lookup(numbers[i] ?? ""), pub, lookups);
  await bench("certificate, cached (edge cache)", same(lookup(numbers[0] ?? "")), pub, lookups);

  // Settle → first delivery attempt: a receiver here, the bench client's webhook pointed at it.
  const arrivals = new Map<string, number>();
  const receiver = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const at = Date.now();
      res.writeHead(200).end();
      const gradingId = (JSON.parse(raw) as { data?: { grading_id?: string } }).data?.grading_id;
      if (gradingId && !arrivals.has(gradingId)) arrivals.set(gradingId, at);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(4901, "127.0.0.1", resolve));
  try {
    await admin(`/clients/${client.id}/webhook`, { url: "http://127.0.0.1:4901/hooks" }, server.adminToken, "PUT");
    const latencies: number[] = [];
    for (let n = 0; n < 20; n++) {
      const graded = await submit(publicKey, small.front, small.back);
      const deadline = Date.now() + 15_000;
      while (!arrivals.has(graded.gradingId) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const arrived = arrivals.get(graded.gradingId);
      if (arrived === undefined) throw new Error(`no delivery for ${graded.gradingId} within 15 s`);
      latencies.push(arrived - Date.parse(graded.settledAt));
    }
    latencies.sort((a, b) => a - b);
    console.log(
      `\nWebhook settle → first delivery (20 submissions): median ${percentile(latencies, 50)} ms  p95 ${percentile(latencies, 95)} ms  min ${latencies[0]} ms  max ${latencies.at(-1)} ms`,
    );
  } finally {
    receiver.close();
  }
} finally {
  if (server.child.pid) process.kill(-server.child.pid, "SIGTERM");
}
