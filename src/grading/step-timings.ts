// Where a submission's time goes, step by step, for the `Server-Timing` response header
// (https://www.w3.org/TR/server-timing/): `read;dur=41.2, store;dur=12.0, grade;dur=290.5, …`.
// Browsers' developer tools and `npm run bench` read it. Only durations are sent, never data.

import type { GradingEngine } from "./engine/types";

export class StepTimings {
  readonly #steps: { name: string; ms: number }[] = [];
  readonly #started = performance.now();

  /** Runs `work` and records how long it took under `name` (also when it throws). */
  async measure<T>(name: string, work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.record(name, performance.now() - start);
    }
  }

  record(name: string, ms: number): void {
    this.#steps.push({ name, ms });
  }

  /** The header value: every recorded step, then `total` since this object was made. */
  header(): string {
    const total = performance.now() - this.#started;
    return [...this.#steps, { name: "total", ms: total }]
      .map((step) => `${step.name};dur=${step.ms.toFixed(1)}`)
      .join(", ");
  }
}

/** The same engine, with the time of each `grade` call recorded as `grade`. */
export function timedEngine(engine: GradingEngine, timings: StepTimings): GradingEngine {
  return {
    id: engine.id,
    grade: (input) => timings.measure("grade", () => engine.grade(input)),
  };
}
