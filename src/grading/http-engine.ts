// The http engine: a grading model hosted elsewhere, behind the JSON contract documented in the
// README ("Plugging in a hosted model"). The answer is validated with zod; anything outside the
// contract is a failure, never a grade. Timeouts, network errors, 429 and 5xx are retryable.
import { z } from "@hono/zod-openapi";
import { encodeBase64 } from "../net/body";
import { type CatalogReference, estimateValue, identifyCard } from "./engine/identify";
import type { DerivedImage, EngineImage, GradeInput, GradeResult, GradingEngine } from "./engine/types";

const halfPoint = z
  .number()
  .min(1)
  .max(10)
  .refine((value) => Number.isInteger(value * 2), "must be a whole or half point");

const faceCentering = z.object({
  left_right: z.number().min(0).max(100),
  top_bottom: z.number().min(0).max(100),
  borders_mm: z.object({ left: z.number(), right: z.number(), top: z.number(), bottom: z.number() }).optional(),
});

const confidence = z.enum(["high", "medium", "low", "none"]);

export const httpEngineAnswer = z.discriminatedUnion("status", [
  z.object({
    status: z.literal("graded"),
    model_version: z.string().min(1).max(100),
    grades: z.object({
      overall: halfPoint,
      centering: halfPoint,
      corners: halfPoint,
      edges: halfPoint,
      surface: halfPoint,
    }),
    confidence: z.object({
      centering: z.number().min(0).max(1),
      corners: z.number().min(0).max(1),
      edges: z.number().min(0).max(1),
      surface: z.number().min(0).max(1),
    }),
    centering_offset: z.object({ horizontal: z.number().min(-50).max(50), vertical: z.number().min(-50).max(50) }),
    centering: z.object({ front: faceCentering, back: faceCentering.nullable() }),
    model_grade: z.record(z.string(), z.unknown()),
    card: z
      .object({
        player: z.string().nullable(),
        year: z.string().nullable(),
        brand: z.string().nullable(),
        set: z.string().nullable(),
        card_number: z.string().nullable(),
        variant: z.string().nullable(),
        category: z.string().nullable(),
        confidence,
      })
      .optional(),
    estimated_value: z
      .object({
        currency: z.literal("USD"),
        low: z.number().nullable(),
        mid: z.number().nullable(),
        high: z.number().nullable(),
        confidence,
      })
      .optional(),
    renders: z
      .object({
        damage_report_front_png_base64: z.string().optional(),
        damage_report_back_png_base64: z.string().optional(),
      })
      .optional(),
  }),
  z.object({
    status: z.literal("rejected"),
    reason: z.enum(["holder_detected", "face_check_failed", "grading_failed"]),
    message: z.string().min(1).max(1000),
  }),
]);

export interface HttpEngineOptions {
  url: string;
  token?: string;
  timeoutMs: number;
  /** Injected for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

function imageField(image: EngineImage, url: string | undefined) {
  return url
    ? { url, content_type: image.contentType }
    : { base64: encodeBase64(image.bytes), content_type: image.contentType };
}

function pngFrom(base64: string | undefined): DerivedImage | null {
  if (!base64) return null;
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes[0] === 0x89 && bytes[1] === 0x50 ? { bytes, contentType: "image/png" } : null;
}

export class HttpEngine implements GradingEngine {
  readonly id: string;
  readonly #options: HttpEngineOptions;

  constructor(options: HttpEngineOptions) {
    this.#options = options;
    this.id = `http@${new URL(options.url).host}`;
  }

  async grade(input: GradeInput): Promise<GradeResult> {
    const { url, token, timeoutMs } = this.#options;
    const doFetch = this.#options.fetch ?? fetch;
    const body = JSON.stringify({
      api_version: "1",
      front: imageField(input.front, input.urls?.front),
      back: imageField(input.back, input.urls?.back),
      hints: input.hints ?? {},
    });
    let response: Response;
    try {
      response = await doFetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body,
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "manual",
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      return {
        status: "failed",
        retryable: true,
        message: timedOut
          ? `The grading model did not answer within ${timeoutMs} ms.`
          : "The grading model could not be reached.",
      };
    }
    if (response.status === 429 || response.status >= 500) {
      await response.body?.cancel();
      return { status: "failed", retryable: true, message: `The grading model answered ${response.status}.` };
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      return {
        status: "failed",
        retryable: false,
        message: `The grading model refused the request (${response.status}).`,
      };
    }
    let parsed: z.infer<typeof httpEngineAnswer>;
    try {
      parsed = httpEngineAnswer.parse(await response.json());
    } catch {
      return {
        status: "failed",
        retryable: false,
        message: "The grading model answered outside the documented contract.",
      };
    }
    if (parsed.status === "rejected") return parsed;

    const references: CatalogReference[] = input.references ?? [];
    const card = parsed.card
      ? { catalog_id: null, hash_distance: null, source: "model" as const, ...parsed.card }
      : identifyCard("", input.hints ?? {}, []);
    return {
      status: "graded",
      model_version: parsed.model_version,
      grades: parsed.grades,
      confidence: parsed.confidence,
      centering_offset: parsed.centering_offset,
      centering: {
        front: { ...parsed.centering.front, borders_mm: parsed.centering.front.borders_mm ?? null },
        back: parsed.centering.back
          ? { ...parsed.centering.back, borders_mm: parsed.centering.back.borders_mm ?? null }
          : null,
      },
      model_grade: parsed.model_grade,
      // A hosted model's measurements stay in its own model_grade; it gives no evidence in ours.
      evidence: null,
      card,
      estimated_value: parsed.estimated_value ?? estimateValue(card, references, parsed.grades.overall),
      renderReports: async () => ({
        damage_report_front: pngFrom(parsed.renders?.damage_report_front_png_base64),
        damage_report_back: pngFrom(parsed.renders?.damage_report_back_png_base64),
      }),
    };
  }
}
