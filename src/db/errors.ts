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

// SQLite's wording: "UNIQUE constraint failed: <table>.<column>[, <table>.<column>…]".
const UNIQUE_FAILED = /UNIQUE constraint failed: ([\w.]+(?:, [\w.]+)*)/g;

/**
 * Whether the error is SQLite refusing a row because `columns` of `table` (exactly that unique index
 * or primary key, in its column order) already hold its values.
 */
export function isUniqueViolation(error: unknown, table: string, columns: readonly string[]): boolean {
  const index = columns.map((column) => `${table}.${column}`).join(", ");
  for (const match of errorChainText(error).matchAll(UNIQUE_FAILED)) {
    if (match[1] === index) return true;
  }
  return false;
}
