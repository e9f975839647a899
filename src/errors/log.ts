// One structured log line per event, as JSON (Workers Logs indexes the fields). No keys, secrets,
// signatures or personal data go in: callers pass ids and error text only, database errors are
// logged as their SQL without bound values, and every text field passes through redactSecrets as
// a last line of defence (README "Security").

const REDACTIONS: [RegExp, string][] = [
  [/svc[kp]_[A-Za-z0-9_-]+/g, "svc?_[redacted]"],
  [/\b(Bearer|Basic)\s+[^\s"',]+/gi, "$1 [redacted]"],
  [/(X-Amz-(?:Signature|Credential|Security-Token)=)[^&\s"']+/gi, "$1[redacted]"],
  [/\bwhsec_[A-Za-z0-9+/=_-]+/g, "whsec_[redacted]"],
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, "[email]"],
  // Long hex and base64 runs: key hashes, HMACs, ciphertexts.
  [/\b[0-9a-f]{32,}\b/gi, "[hex]"],
  [/[A-Za-z0-9+/]{40,}={0,2}/g, "[base64]"],
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of REDACTIONS) out = out.replace(pattern, replacement);
  return out;
}

/** The loggable description of an error: a database error's SQL without its bound values. */
export function describeError(error: unknown): { error: string; message?: string; stack?: string; cause?: string } {
  if (!(error instanceof Error)) return { error: redactSecrets(String(error)) };
  const query = (error as { query?: unknown }).query;
  const isDbError = typeof query === "string" && "params" in error;
  // Only the frames: the first lines of a stack repeat the message (and a query error's params).
  const frames = error.stack
    ?.split("\n")
    .filter((line) => line.trimStart().startsWith("at "))
    .join("\n");
  const cause = error.cause instanceof Error ? redactSecrets(error.cause.message) : undefined;
  return {
    error: error.name,
    message: redactSecrets(isDbError ? `Failed query: ${query} (bound values not logged)` : error.message),
    ...(frames ? { stack: frames } : {}),
    ...(cause ? { cause } : {}),
  };
}

export function logEvent(level: "error" | "warn", fields: Record<string, unknown>, error?: unknown): void {
  const detail = error === undefined ? {} : describeError(error);
  console.error(redactSecrets(JSON.stringify({ level, ...fields, ...detail })));
}
