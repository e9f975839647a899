import type { Config } from "../env";
import { BuiltinEngine } from "./engine/builtin";
import type { GradingEngine } from "./engine/types";
import { HttpEngine } from "./http-engine";

/** The engine GRADING_ENGINE names (docs/decisions.md §5). */
export function createGradingEngine(config: Config): GradingEngine {
  if (config.GRADING_ENGINE === "http" && config.GRADING_ENGINE_URL) {
    return new HttpEngine({
      url: config.GRADING_ENGINE_URL,
      token: config.GRADING_ENGINE_TOKEN,
      timeoutMs: config.GRADING_ENGINE_TIMEOUT_SECONDS * 1000,
    });
  }
  return new BuiltinEngine();
}
