import { describe, expect, it } from "vitest";
import { createPublicClient } from "../helpers/factories";
import { callPublic, jsonSubmission, rawPair } from "../helpers/submissions";

// POST /gradings says where its time went in a Server-Timing header (durations only).

function steps(header: string | null): Map<string, number> {
  const parsed = new Map<string, number>();
  for (const entry of (header ?? "").split(", ")) {
    const match = /^([a-z]+);dur=(\d+\.\d)$/.exec(entry);
    if (!match?.[1] || !match[2]) throw new Error(`not a Server-Timing entry: ${entry}`);
    parsed.set(match[1], Number(match[2]));
  }
  return parsed;
}

describe("Server-Timing on POST /api/public/v1/gradings", () => {
  it("names each step of a graded submission (201), in order, ending with total", async () => {
    const client = await createPublicClient();
    const res = await callPublic("/gradings", client.key, { body: jsonSubmission(rawPair()) });
    expect(res.status).toBe(201);
    const timing = steps(res.headers.get("server-timing"));
    expect([...timing.keys()]).toEqual(["read", "images", "store", "grade", "settle", "total"]);
    // Grading is part of settling, and every step is part of the whole.
    expect(timing.get("settle") ?? -1).toBeGreaterThanOrEqual(timing.get("grade") ?? Number.POSITIVE_INFINITY);
    for (const [, ms] of timing) expect(ms).toBeLessThanOrEqual(timing.get("total") ?? -1);
  });

  it("is on a rejection (422) too, and absent from a 400 that never reached grading", async () => {
    const client = await createPublicClient();
    const pair = rawPair();
    const same = await callPublic("/gradings", client.key, {
      body: jsonSubmission({ front: pair.front, back: pair.front }),
    });
    expect(same.status).toBe(422);
    expect([...steps(same.headers.get("server-timing")).keys()]).toContain("grade");
    const bad = await callPublic("/gradings", client.key, { body: { front_image: {} } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("server-timing")).toBeNull();
  });
});
