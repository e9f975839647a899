import { describe, expect, it } from "vitest";
import { call } from "../helpers/request";

describe("GET /health", () => {
  it("answers 200 {status: ok} without a key", async () => {
    const res = await call("/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers unknown paths with 404 not_found in the error envelope", async () => {
    const res = await call("/nope");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    expect(res.body.error.request_id).toBe(res.headers.get("x-request-id"));
  });
});
