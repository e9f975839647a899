// The engine alone in a Worker (scripts/bench/engine-worker.ts) under `wrangler dev`, on
// 127.0.0.1:4200, for the scripts that measure the engine in workerd itself.
import { spawn } from "node:child_process";

export const ENGINE_WORKER_URL = "http://127.0.0.1:4200";

/**
 * Starts the engine's Worker, waits until it answers (at most 90 s), runs `work`, then stops the
 * server and waits for its processes to end, so that another can bind the port.
 */
export async function withEngineWorker<T>(work: () => Promise<T>): Promise<T> {
  const dev = spawn("npx", ["wrangler", "dev", "--config", "scripts/bench/wrangler.bench.toml"], {
    stdio: "ignore",
    detached: true,
  });
  try {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const up = await fetch(ENGINE_WORKER_URL).then(
        (r) => r.status === 405,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline)
        throw new Error(`the engine's Worker did not start on ${ENGINE_WORKER_URL} within 90 s`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return await work();
  } finally {
    if (dev.pid) process.kill(-dev.pid, "SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}
