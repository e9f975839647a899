import { z } from "@hono/zod-openapi";
import { CertificateSchema } from "../certificates/schemas";

export const IMAGE_CONTENT_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;

/** How the engine reads the card's orientation, size and perspective in a submitted photo (README, grading engine). */
const ORIENTATION_RULE =
  "A card standing upright (long side vertical) is read upright, whatever the photo's own format; a card lying sideways (long side horizontal) is read with its top toward the left edge of the frame (a portrait photo turned 90° counter-clockwise). A card turned clockwise to within 5° of the photo's diagonal is refused: turned slightly, it would be read the other way, half a turn apart. Standard (63 × 88 mm), small (59 × 86 mm) and 1952–56 Topps (66.7 × 95.3 mm) cards are recognised; front and back must be the same format. The photo's EXIF orientation is applied, and its 35 mm-equivalent focal length, when kept (with the camera's whole 4:3 or 3:2 frame, uncropped), lets the proportions of a card photographed at a slant be recovered exactly.";

const ImageInputSchema = z
  .object({
    url: z.string().min(1).max(2048).optional().openapi({
      description:
        "A public `https://` URL of the photo. Fetched once: private and loopback hosts refused on every redirect hop, at most 3 redirects, 12 MB, 10 s.",
      example: "https://images.example.com/uploads/front.jpg",
    }),
    base64: z.string().min(1).optional().openapi({
      description: "The photo itself, base64 (a `data:image/...;base64,` URL is accepted); at most 12 MB decoded.",
    }),
    content_type: z.enum(IMAGE_CONTENT_TYPES).optional().openapi({
      description: "Optional with `base64`; when given it must match the image data.",
      example: "image/jpeg",
    }),
  })
  .strict()
  .refine((image) => (image.url === undefined) !== (image.base64 === undefined), {
    message: "give exactly one of url or base64",
  })
  .refine((image) => image.content_type === undefined || image.base64 !== undefined, {
    message: "content_type goes with base64 only",
    path: ["content_type"],
  })
  .openapi("ImageInput", {
    description: `A photo of one face: \`{ url }\` or \`{ base64, content_type? }\`. ${ORIENTATION_RULE}`,
  });

// C0 and C1 control characters, DEL, and the bidirectional marks, embeddings, overrides and
// isolates (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069): text that could make a
// certificate page or a log line display something other than what was stored.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
export const UNSAFE_TEXT_MESSAGE = "must not contain control or bidirectional-override characters";
export const isSafeText = (value: string) => !UNSAFE_TEXT.test(value);

const hint = (example: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine(isSafeText, UNSAFE_TEXT_MESSAGE)
    .optional()
    .openapi({ description: "1–200 characters; control and bidirectional-override characters are refused.", example });

export const CardHintsSchema = z
  .object({
    player: hint("Shohei Ohtani"),
    year: hint("2018"),
    brand: hint("Topps"),
    set: hint("Topps Update"),
    card_number: hint("US285"),
    variant: hint("Gold"),
    category: hint("Baseball"),
  })
  .strict()
  .openapi("CardHints", {
    description: "Optional hints; the service identifies the card itself, and agreeing hints break ties.",
  });

const externalRef = z.string().min(1).max(200).refine(isSafeText, UNSAFE_TEXT_MESSAGE).openapi({
  description:
    "Your own reference, echoed back; find submissions by it. 1–200 characters; control and bidirectional-override characters are refused.",
  example: "order-1042",
});

export const SubmissionJsonSchema = z
  .object({
    external_ref: externalRef.optional(),
    front_image: ImageInputSchema,
    back_image: ImageInputSchema,
    card: CardHintsSchema.optional(),
  })
  .strict()
  .openapi("SubmissionRequest");

export const SubmissionMultipartSchema = z
  .object({
    front_image: z.string().openapi({
      type: "string",
      format: "binary",
      description: `JPEG, PNG or still WebP, ≤ 12 MB. ${ORIENTATION_RULE}`,
    }),
    back_image: z.string().openapi({
      type: "string",
      format: "binary",
      description: `JPEG, PNG or still WebP, ≤ 12 MB. ${ORIENTATION_RULE}`,
    }),
    external_ref: externalRef.optional(),
    card: z.string().optional().openapi({
      description: 'Card hints as a JSON object, e.g. `{"player":"Shohei Ohtani"}`.',
      example: '{"player":"Shohei Ohtani","year":"2018"}',
    }),
  })
  .openapi("SubmissionMultipart");

export const GradingSchema = z
  .object({
    grading_id: z.string().uuid().openapi({ example: "5f0c8a5e-3f7a-4d8e-9a51-0b6f1f7c2d11" }),
    external_ref: z.string().nullable().openapi({ example: "order-1042" }),
    status: z.enum(["processing", "complete", "rejected"]).openapi({
      description: "`processing` → `complete` or `rejected`; both final.",
      example: "complete",
    }),
    reason: z.enum(["holder_detected", "face_check_failed", "grading_failed"]).optional().openapi({
      description: "Present when `rejected`.",
    }),
    message: z.string().optional().openapi({
      description: "Present when `rejected`: what the engine found.",
      example: "The card is in a graded holder.",
    }),
    certificate: CertificateSchema.optional().openapi({ description: "Present when `complete`." }),
    submitted_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
    settled_at: z.string().nullable().openapi({ example: "2026-11-22T10:00:02.410Z" }),
  })
  .openapi("Grading");

export const GradingIdParams = z.object({
  id: z
    .string()
    .uuid("must be a grading id (UUID)")
    .openapi({ param: { name: "id", in: "path" }, example: "5f0c8a5e-3f7a-4d8e-9a51-0b6f1f7c2d11" }),
});

export const GradingsQuery = z.object({
  external_ref: externalRef.openapi({ param: { name: "external_ref", in: "query" } }),
});

export const RejectionSchema = z
  .object({
    error: z.object({
      code: z.literal("grading_failed").openapi({ example: "grading_failed" }),
      message: z.string().openapi({ example: "The card is in a graded holder; submit the raw card." }),
      request_id: z.string().openapi({ example: "0b7c2f43-8d0e-4a51-bb0f-3f1f2f0c9a77" }),
    }),
    grading_id: z.string().uuid().openapi({
      description: "The rejected submission; `GET /gradings/{id}` shows it too.",
      example: "5f0c8a5e-3f7a-4d8e-9a51-0b6f1f7c2d11",
    }),
    status: z.literal("rejected").openapi({ example: "rejected" }),
    reason: z.enum(["holder_detected", "face_check_failed", "grading_failed"]).openapi({
      description:
        "`holder_detected`: the card is in a graded slab. `face_check_failed`: a side is missing, the faces are duplicates, or front and back do not match. `grading_failed`: the photos cannot be graded (too small, dark, bright or blurred; no card found, or several cards; the card's edge or printed frame cannot be measured); `message` names what the photo lacks.",
    }),
  })
  .openapi("Rejection");
