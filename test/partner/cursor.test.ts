import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "../../src/partner/cursor";

describe("page cursors", () => {
  it("round-trips a timestamp and a row number through an ISO 8601 string", () => {
    const cursor = encodeCursor("2026-11-20T14:03:11.482Z", 42);
    expect(cursor).toBe("2026-11-20T14:03:11.482000000042Z");
    expect(decodeCursor(cursor)).toEqual({ timestamp: "2026-11-20T14:03:11.482Z", tiebreak: 42 });
    expect(Number.isNaN(Date.parse(cursor))).toBe(false);
  });

  it.each([
    ["2026-11-20T14:03:11Z", "2026-11-20T14:03:11.000Z"],
    ["2026-11-20T14:03:11.5Z", "2026-11-20T14:03:11.500Z"],
    ["2026-11-20T16:03:11.482+02:00", "2026-11-20T14:03:11.482Z"],
    ["2026-11-20T09:33:11,482-04:30", "2026-11-20T14:03:11.482Z"],
  ])("reads the client timestamp %s as strictly-before %s", (value, timestamp) => {
    expect(decodeCursor(value)).toEqual({ timestamp, tiebreak: 0 });
  });

  it.each([
    "",
    "yesterday",
    "2026-11-20",
    "2026-11-20 14:03:11Z",
    "2026-02-29T00:00:00Z",
    "2026-11-20T24:00:00Z",
    "2026-11-20T14:03:11.1234567890123Z",
    "2026-11-20T14:03:11+02:99",
  ])("refuses %j", (value) => {
    expect(decodeCursor(value)).toBeNull();
  });
});
