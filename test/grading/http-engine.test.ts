import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/env";
import { BuiltinEngine } from "../../src/grading/engine/builtin";
import { createGradingEngine } from "../../src/grading/engines";
import { HttpEngine } from "../../src/grading/http-engine";
import { HOSTED_MODEL_GRADE } from "../helpers/fixtures";

const images = {
  front: { bytes: new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]), contentType: "image/jpeg" },
  back: { bytes: new Uint8Array([0xff, 0xd8, 0xff, 4, 5, 6]), contentType: "image/jpeg" },
};

const graded = HOSTED_MODEL_GRADE;

/** A request interceptor standing in for the hosted model. */
function interceptor(answer: (request: Request) => Response | Promise<Response>) {
  const seen: Request[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    seen.push(request.clone());
    return answer(request);
  }) as typeof fetch;
  return { fetcher, seen };
}

const engineWith = (fetcher: typeof fetch, timeoutMs = 1000) =>
  new HttpEngine({ url: "https://model.example.com/grade", token: "model-token", timeoutMs, fetch: fetcher });

describe("HttpEngine", () => {
  it("posts presigned URLs and hints, and turns a valid answer into a grade", async () => {
    const { fetcher, seen } = interceptor(() => Response.json(graded));
    const result = await engineWith(fetcher).grade({
      ...images,
      urls: { front: "https://files.example.com/f?sig=1", back: "https://files.example.com/b?sig=2" },
      hints: { player: "Shohei Ohtani" },
    });
    expect(result).toMatchObject({
      status: "graded",
      model_version: "remote-7",
      grades: graded.grades,
      centering_offset: graded.centering_offset,
    });
    if (result.status === "graded") {
      expect(result.card).toMatchObject({ player: "Shohei Ohtani", source: "hints", confidence: "low" });
      expect(await result.renderReports()).toEqual({ damage_report_front: null, damage_report_back: null });
      expect(result.centering.front.borders_mm).toBeNull();
    }
    const request = seen[0];
    expect(request?.method).toBe("POST");
    expect(request?.headers.get("authorization")).toBe("Bearer model-token");
    expect(await request?.json()).toEqual({
      api_version: "1",
      front: { url: "https://files.example.com/f?sig=1", content_type: "image/jpeg" },
      back: { url: "https://files.example.com/b?sig=2", content_type: "image/jpeg" },
      hints: { player: "Shohei Ohtani" },
    });
  });

  it("sends the images inline as base64 when no URLs are given", async () => {
    const { fetcher, seen } = interceptor(() => Response.json(graded));
    await engineWith(fetcher).grade(images);
    const body = (await seen[0]?.json()) as { front: { base64: string } };
    expect(body.front).toEqual({
      base64: btoa(String.fromCharCode(0xff, 0xd8, 0xff, 1, 2, 3)),
      content_type: "image/jpeg",
    });
  });

  it("passes a rejection through", async () => {
    const { fetcher } = interceptor(() =>
      Response.json({ status: "rejected", reason: "holder_detected", message: "slab" }),
    );
    expect(await engineWith(fetcher).grade(images)).toEqual({
      status: "rejected",
      reason: "holder_detected",
      message: "slab",
    });
  });

  it.each([503, 500, 429])("reports a %i answer as a retryable failure", async (status) => {
    const { fetcher } = interceptor(() => new Response("busy", { status }));
    expect(await engineWith(fetcher).grade(images)).toMatchObject({ status: "failed", retryable: true });
  });

  it("reports a timeout as a retryable failure", async () => {
    const { fetcher } = interceptor(
      (request) =>
        new Promise<Response>((_, reject) => {
          request.signal.addEventListener("abort", () => reject(request.signal.reason));
        }),
    );
    expect(await engineWith(fetcher, 50).grade(images)).toMatchObject({
      status: "failed",
      retryable: true,
      message: expect.stringContaining("50 ms"),
    });
  });

  it("reports a network error as a retryable failure", async () => {
    const { fetcher } = interceptor(() => {
      throw new TypeError("connection refused");
    });
    expect(await engineWith(fetcher).grade(images)).toMatchObject({ status: "failed", retryable: true });
  });

  it.each([
    ["a 400", () => new Response("bad", { status: 400 })],
    ["a redirect", () => new Response(null, { status: 302, headers: { location: "https://elsewhere.example.com" } })],
    ["a body that is not JSON", () => new Response("<html>", { status: 200 })],
    ["grades off the half-point scale", () => Response.json({ ...graded, grades: { ...graded.grades, overall: 9.3 } })],
    ["a grade above 10", () => Response.json({ ...graded, grades: { ...graded.grades, corners: 11 } })],
    ["an unknown rejection reason", () => Response.json({ status: "rejected", reason: "cosmic_rays", message: "?" })],
  ])("reports %s as a failure that is not retried", async (_name, answer) => {
    const { fetcher } = interceptor(answer);
    expect(await engineWith(fetcher).grade(images)).toMatchObject({ status: "failed", retryable: false });
  });
});

describe("createGradingEngine", () => {
  it("builds the built-in engine by default and the http engine when configured", () => {
    expect(createGradingEngine(loadConfig(env))).toBeInstanceOf(BuiltinEngine);
    const http = createGradingEngine(
      loadConfig({ ...env, GRADING_ENGINE: "http", GRADING_ENGINE_URL: "https://model.example.com/grade" } as Env),
    );
    expect(http).toBeInstanceOf(HttpEngine);
    expect(http.id).toBe("http@model.example.com");
  });

  it("refuses GRADING_ENGINE=http without a URL", () => {
    expect(() => loadConfig({ ...env, GRADING_ENGINE: "http" } as Env)).toThrow(/GRADING_ENGINE_URL/);
  });
});
