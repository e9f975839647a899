import { z } from "@hono/zod-openapi";

// Page cursors are ISO 8601 datetimes, as the Partner API document says. Items that share a
// millisecond are told apart by the digits past the milliseconds: the cursor of an item is its
// timestamp with nine more fractional digits holding the item's row number, so "before this
// value" is exact even when many rows share one timestamp. A plain timestamp from a client
// (no extra digits) means "strictly before this instant".

export interface CursorPosition {
  /** ISO 8601 UTC with milliseconds, as stored. */
  timestamp: string;
  /** Rows at exactly `timestamp` with a lower row number come after the cursor; 0 = none. */
  tiebreak: number;
}

const TIEBREAK_DIGITS = 9;
/** `YYYY-MM-DDTHH:MM:SS.mmm`: a stored timestamp up to its milliseconds. */
const ISO_TO_MILLIS_LENGTH = 23;
const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,12}))?(Z|[+-]\d{2}:\d{2})$/;

export function encodeCursor(timestamp: string, rowNumber: number): string {
  // Stored timestamps are toISOString() output: "YYYY-MM-DDTHH:MM:SS.mmmZ".
  return `${timestamp.slice(0, ISO_TO_MILLIS_LENGTH)}${String(rowNumber).padStart(TIEBREAK_DIGITS, "0")}Z`;
}

export function decodeCursor(value: string): CursorPosition | null {
  const match = ISO_DATETIME.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction = "", zone] = match;
  const fields = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const [year, month, day, hour, minute, second] = fields;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  const millis = Number(fraction.slice(0, 3).padEnd(3, "0"));
  let epoch = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  if (zone && zone !== "Z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const offsetMinutes = Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6));
    if (Number(zone.slice(4, 6)) > 59) return null;
    epoch -= sign * offsetMinutes * 60_000;
  }
  const date = new Date(epoch);
  if (Number.isNaN(date.getTime())) return null;
  const extra = fraction.slice(3);
  return {
    timestamp: date.toISOString(),
    tiebreak: extra ? Number(extra.padEnd(TIEBREAK_DIGITS, "0")) : 0,
  };
}

/** The `cursor` query parameter, validated and decoded. */
export const CursorParam = z
  .string()
  .transform((value, ctx) => {
    const position = decodeCursor(value);
    if (!position) {
      ctx.addIssue({ code: "custom", message: "must be an ISO 8601 datetime such as a previous next_cursor" });
      return z.NEVER;
    }
    return position;
  })
  .optional()
  .openapi({
    type: "string",
    description:
      "ISO 8601 datetime: returns items created before it. Pass a previous `next_cursor` unchanged; its digits past the milliseconds order items that share a millisecond.",
    example: "2026-11-20T14:03:11.482000000042Z",
  });

export const LimitParam = z
  .string()
  .regex(/^\d{1,3}$/, "must be an integer from 1 to 100")
  .transform(Number)
  .pipe(z.number().int().min(1, "must be at least 1").max(100, "must be at most 100"))
  .optional()
  .default(25)
  .openapi({
    type: "integer",
    minimum: 1,
    maximum: 100,
    default: 25,
    description: "Page size, 1 to 100.",
    example: 25,
  });

export const NextCursorSchema = z.string().nullable().openapi({
  description: "Pass as `cursor` for the next page; null when there are no more items.",
  example: "2026-11-20T14:03:11.482000000042Z",
});
