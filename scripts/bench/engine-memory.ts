// `npm run bench:engine-memory`: the peak memory of one grade of a 12 MP pair, read off the workerd
// process that runs the engine. On each of three fresh `wrangler dev` servers running a Worker
// that only grades (127.0.0.1; scripts/lib/engine-worker-server.ts), a 2 MP pair is graded to warm
// it up, the processes' resident memory is recorded, the 12 MP pair is graded once, and the
// high-water mark (VmHWM) above that baseline is reported. Then the same for a 12 MP pair whose
// card is small in the frame (its region read again from the photo, analyse-face.ts).
import { readdirSync, readFileSync } from "node:fs";
import { backOf, drawCardScene, encodeJpeg } from "../../test/helpers/card-images.ts";
import { benchScene } from "../../test/helpers/scene-sets.ts";
import { ENGINE_WORKER_URL, withEngineWorker } from "../lib/engine-worker-server.ts";

/** Fresh servers per pair: one grade on each. */
const RUNS = 3;

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
  const response = await fetch(ENGINE_WORKER_URL, { method: "POST", body });
  return (await response.json()) as { status: string; ms: number };
}

/**
 * `body` graded once on each of RUNS fresh `wrangler dev` servers, each warmed up with a 2 MP pair
 * first: how far the workerd processes' high-water mark rose above the warmed-up baseline. One
 * grade per server, so no other grade's uncollected garbage (a decoder's memory is freed only when
 * collected) counts against it.
 */
async function measure(label: string, warmUp: Uint8Array<ArrayBuffer>, body: Uint8Array<ArrayBuffer>): Promise<void> {
  const rises: number[] = [];
  const runs: { status: string; ms: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    await withEngineWorker(async () => {
      await grade(warmUp);
      const baseline = workerdMemory();
      runs.push(await grade(body));
      rises.push((workerdMemory().hwm - baseline.rss) / 1024);
    });
  }
  console.log(`${label}: ${JSON.stringify(runs)}`);
  console.log(
    `  one grade raised workerd's resident high-water mark by ${rises.map((mb) => mb.toFixed(0)).join(", ")} MB ` +
      `(${RUNS} fresh servers; at most ${Math.max(...rises).toFixed(0)} MB)`,
  );
}

console.log("Drawing a 2 MP pair and two 12 MP pairs…");
const small = pair(1632, 1224);
const large = pair(4000, 3000);
// 540 px wide: 3.2 px per mm at the working size (1500 px), 8.6 in the photo.
const smallCard = pair(4000, 3000, 540);
await measure("12 MP pair", small, large);
await measure("12 MP pair, card small (its region read again at 6/8)", small, smallCard);
