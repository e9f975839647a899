// `npm run bench`: latency and throughput of the Partner Read API through `wrangler dev` on this
// machine. Starts its own local stack on 127.0.0.1:4100 (unless BENCH_BASE_URL and
// DEMO_PARTNER_KEY point at a running one), then for each endpoint: 20 warm-up requests, 200
// sequential requests (p50 / p95 / max), and 400 requests at concurrency 16 (requests per second).
// Bounded in count and time; loopback only.
import { type ChildProcess, spawn } from "node:child_process";

const SEQUENTIAL = 200;
const CONCURRENT_TOTAL = 400;
const CONCURRENCY = 16;
const PORT = 4100;

async function startServer(): Promise<{ base: string; key: string; child: ChildProcess }> {
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
    const healthy = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (key && healthy) return { base, key, child };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`server did not start:\n${output}`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function timed(url: string, key: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  if (response.status >= 400) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - start;
}

async function bench(name: string, url: string, key: string) {
  for (let i = 0; i < 20; i++) await timed(url, key);
  const samples: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) samples.push(await timed(url, key));
  samples.sort((a, b) => a - b);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CONCURRENT_TOTAL) {
        next++;
        await timed(url, key);
      }
    }),
  );
  const rps = CONCURRENT_TOTAL / ((performance.now() - started) / 1000);
  const fmt = (ms: number) => ms.toFixed(1).padStart(7);
  console.log(
    `${name.padEnd(28)} p50 ${fmt(percentile(samples, 50))} ms  p95 ${fmt(percentile(samples, 95))} ms  max ${fmt(samples.at(-1) ?? 0)} ms  ${rps.toFixed(0).padStart(5)} req/s`,
  );
}

const external = process.env.BENCH_BASE_URL && process.env.DEMO_PARTNER_KEY;
const server = external ? null : await startServer();
const base = server?.base ?? process.env.BENCH_BASE_URL ?? "";
const key = server?.key ?? process.env.DEMO_PARTNER_KEY ?? "";
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
  await bench("GET /health", `${base}/health`, key);
  await bench("GET /v1/account", `${base}/v1/account`, key);
  await bench("GET /v1/gradings", `${base}/v1/gradings`, key);
  await bench("GET /v1/gradings/{id}", `${base}/v1/gradings/${first.id}`, key);
  await bench("GET /v1/cards (25, 50 URLs)", `${base}/v1/cards`, key);
  await bench("GET /v1/cards?q=&sort=grade", `${base}/v1/cards?q=a&sort=grade`, key);
  await bench("GET /v1/cards/{id}", `${base}/v1/cards/${first.user_card_id}`, key);
} finally {
  if (server?.child.pid) process.kill(-server.child.pid, "SIGTERM");
}
