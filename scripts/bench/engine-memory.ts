// `npm run bench:engine-memory`: the peak memory of grading a 12 MP pair, read off the workerd
// process that runs the engine. Starts `wrangler dev` with a Worker that only grades (127.0.0.1),
// grades a 2 MP pair to warm it up, records the process's resident memory, grades a 12 MP pair
// three times and reports the high-water mark (VmHWM) above that baseline. Then the same, on a
// fresh server, for a 12 MP pair whose card is small in the frame (its region read again from
// the photo, analyse-face.ts).
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { backOf, drawCardScene, encodeJpeg } from "../../test/helpers/card-images.ts";
import { benchScene } from "../../test/helpers/scene-sets.ts";

const BASE = "http://127.0.0.1:4200";

function pair(width: number, height: number, cardWidth?: number): Uint8Array<ArrayBuffer> {
  const scene = { ...benchScene(width, height), ...(cardWidth ? { cardWidth } : {}) };
  const front = encodeJpeg(drawCardScene(scene), 88);
  const back = encodeJpeg(drawCardScene(backOf(scene)), 88);
  const body = new Uint8Array(4 + front.length + back.length);
  new DataView(body.buffer).setUint32(0, front.length);
  body.set(front, 4);
  body.set(back, 4 + front.length);
  return body;
}

/** kB fields of /proc/<pid>/status for every workerd process. */
function workerdMemory(): { rss: number; hwm: number } {
  let rss = 0;
  let hwm = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("workerd")) continue;
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      rss += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      hwm += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // The process ended between listing and reading.
    }
  }
  return { rss, hwm };
}

async function grade(body: Uint8Array<ArrayBuffer>) {
  const response = await fetch(BASE, { method: "POST", body });
  return (await response.json()) as { status: string; ms: number };
}

/**
 * A fresh `wrangler dev`, warmed up with a 2 MP pair; `body` graded three times; how far the
 * workerd processes' high-water mark rose above the warmed-up baseline.
 */
async function measure(label: string, warmUp: Uint8Array<ArrayBuffer>, body: Uint8Array<ArrayBuffer>): Promise<void> {
  const dev = spawn("npx", ["wrangler", "dev", "--config", "scripts/bench/wrangler.bench.toml"], {
    stdio: "ignore",
    detached: true,
  });
  try {
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      const up = await fetch(BASE).then(
        (r) => r.status === 405,
        () => false,
      );
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const warm = await grade(warmUp);
    const baseline = workerdMemory();
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await grade(body));
    const after = workerdMemory();
    console.log(`${label}: warm-up ${JSON.stringify(warm)}, runs ${JSON.stringify(runs)}`);
    console.log(
      `  workerd resident memory: ${(baseline.rss / 1024).toFixed(0)} MB before, peak ${(after.hwm / 1024).toFixed(0)} MB; ` +
        `three grades added at most ${((after.hwm - baseline.rss) / 1024).toFixed(0)} MB`,
    );
  } finally {
    if (dev.pid) process.kill(-dev.pid, "SIGTERM");
    // Let the server's processes end before the next one binds the port.
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

console.log("Drawing a 2 MP pair and two 12 MP pairs…");
const small = pair(1632, 1224);
const large = pair(4000, 3000);
// 540 px wide: 3.2 px per mm at the working size (1500 px), 8.6 in the photo.
const smallCard = pair(4000, 3000, 540);
await measure("12 MP pair", small, large);
await measure("12 MP pair, card small (its region read again at 6/8)", small, smallCard);
