// D1 errors reach us wrapped (drizzle's "Failed query: …" carries the D1 error as its cause); the
// constraint that failed is only in the innermost message.

/** Every message along the error's cause chain, joined. */
export function errorChainText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    parts.push(current instanceof Error ? current.message : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(" <- ");
}
