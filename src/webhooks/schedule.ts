// When a failed delivery is tried again (docs/decisions.md §4): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after
// attempts 1–7 (8 attempts, about 28 h), each ±10 % so retries of many deliveries spread out.

/** Multiples of WEBHOOK_RETRY_BASE_SECONDS (5 s) after each failed attempt. */
export const RETRY_MULTIPLES = [1, 60, 360, 1440, 3600, 7200, 7200] as const;
export const MAX_ATTEMPTS = RETRY_MULTIPLES.length + 1;
export const JITTER = 0.1;

/**
 * Seconds to wait after failed attempt `attempt` (1-based), or null when it was the last. Whole
 * seconds (the queue's unit), at least 1; `random` is in [0, 1).
 */
export function retryDelaySeconds(attempt: number, baseSeconds: number, random = Math.random()): number | null {
  const multiple = RETRY_MULTIPLES[attempt - 1];
  if (multiple === undefined) return null;
  const jitter = 1 + JITTER * (2 * random - 1);
  return Math.max(1, Math.round(baseSeconds * multiple * jitter));
}
