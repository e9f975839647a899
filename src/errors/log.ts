// One structured log line per event, as JSON (Workers Logs indexes the fields). No keys, secrets or
// signatures go in: callers pass ids and error text only.

export function logEvent(level: "error" | "warn", fields: Record<string, unknown>, error?: unknown): void {
  const detail =
    error === undefined ? {} : { error: String(error), ...(error instanceof Error ? { stack: error.stack } : {}) };
  console.error(JSON.stringify({ level, ...fields, ...detail }));
}
