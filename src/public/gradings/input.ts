// Reading a submission: a JSON body (images as URLs or base64) or multipart/form-data (images as
// files), bounded in size while it streams in, checked into one shape, and fingerprinted so an
// Idempotency-Key can tell a replay from a reuse.
import type { Context } from "hono";
import { sha256Hex, toHex } from "../../auth/api-keys";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { fromZod, invalidField } from "../../errors/validation";
import { WORKING_MAX_SIDE } from "../../grading/engine/builtin";
import { checkDecodeBudget, DecodeBudgetError, DecodeError } from "../../grading/engine/decode";
import type { CardHints, EngineImage } from "../../grading/engine/types";
import { decodeBase64, MAX_REQUEST_BODY_BYTES, readCapped } from "../../net/body";
import { fetchImage } from "../../net/image-fetch";
import { MAX_IMAGE_BYTES } from "../../storage/images";
import { CardHintsSchema, isSafeText, SubmissionJsonSchema, UNSAFE_TEXT_MESSAGE } from "./schemas";

type Face = "front_image" | "back_image";
type ImageSource = { kind: "bytes"; bytes: Uint8Array; declaredType?: string } | { kind: "url"; url: string };

export interface SubmissionInput {
  externalRef: string | null;
  hints: CardHints;
  sources: Record<Face, ImageSource>;
  /** Which body form it came in: the prefix of field paths in errors (`json.front_image…`, `form.front_image`). */
  form: "json" | "form";
  /** SHA-256 of the canonical request: fields, plus each image's URL or the hash of its bytes. */
  fingerprint: string;
}

// Two base64 images (4/3 of 12 MB each) and the rest of a JSON body; two files and the form around them.
const MAX_JSON_BODY_BYTES = MAX_REQUEST_BODY_BYTES;
const MAX_MULTIPART_BODY_BYTES = 2 * MAX_IMAGE_BYTES + 64 * 1024;

const tooLarge = (message: string) => new ApiError("payload_too_large", message);

export async function readSubmission(c: Context<AppEnv>): Promise<SubmissionInput> {
  const contentType = (c.req.header("content-type") ?? "").toLowerCase();
  if (contentType.startsWith("multipart/form-data")) return readMultipart(c);
  if (contentType.startsWith("application/json") || contentType === "") return readJson(c);
  throw invalidField("header.content-type", "must be application/json or multipart/form-data");
}

/**
 * The parsed body. Its own function so the raw bytes and the text (each as large as the body, up
 * to 33 MB) are unreachable before the images are decoded: a Worker has 128 MB.
 */
async function parseJsonBody(request: Request): Promise<unknown> {
  const raw = await readBodyCapped(request, MAX_JSON_BODY_BYTES);
  try {
    return JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw invalidField("json", "the body is not valid JSON");
  }
}

async function readJson(c: Context<AppEnv>): Promise<SubmissionInput> {
  const parsed = await parseJsonBody(c.req.raw);
  const result = SubmissionJsonSchema.safeParse(parsed);
  if (!result.success) throw fromZod(result.error, "json", { fullStop: true });
  const body = result.data;
  const source = (face: Face): ImageSource => {
    const image = body[face];
    if (image.url !== undefined) return { kind: "url", url: image.url };
    const bytes = decodeBase64(image.base64 ?? "");
    if (!bytes) throw invalidField(`json.${face}.base64`, "not valid base64");
    return { kind: "bytes", bytes, declaredType: image.content_type };
  };
  const sources = { front_image: source("front_image"), back_image: source("back_image") };
  return finish("json", body.external_ref ?? null, body.card ?? {}, sources);
}

/**
 * The form. With a declared length within the cap the runtime parses the body as it streams in
 * (no second copy of it); a body of unknown length is read under the cap first.
 */
async function parseForm(c: Context<AppEnv>): Promise<FormData> {
  const declared = Number(c.req.header("content-length"));
  let request = c.req.raw;
  if (!(declared > 0 && declared <= MAX_MULTIPART_BODY_BYTES)) {
    const raw = await readBodyCapped(c.req.raw, MAX_MULTIPART_BODY_BYTES);
    request = new Request(c.req.url, {
      method: "POST",
      headers: { "content-type": c.req.header("content-type") ?? "" },
      body: raw,
    });
  }
  try {
    return await request.formData();
  } catch {
    throw invalidField("form", "the body is not valid multipart/form-data");
  }
}

async function readMultipart(c: Context<AppEnv>): Promise<SubmissionInput> {
  const form = await parseForm(c);
  const known = new Set(["front_image", "back_image", "external_ref", "card"]);
  for (const name of form.keys()) {
    if (!known.has(name)) throw invalidField(`form.${name}`, "is not a field of this request");
  }
  const file = async (face: Face): Promise<ImageSource> => {
    const value = form.get(face);
    if (value === null) throw invalidField(`form.${face}`, "is required (a file)");
    if (typeof value === "string") throw invalidField(`form.${face}`, "must be a file");
    return { kind: "bytes", bytes: new Uint8Array(await value.arrayBuffer()), declaredType: undefined };
  };
  const sources = { front_image: await file("front_image"), back_image: await file("back_image") };
  const externalRef = form.get("external_ref");
  if (externalRef !== null && (typeof externalRef !== "string" || externalRef.length < 1 || externalRef.length > 200)) {
    throw invalidField("form.external_ref", "must be text of 1 to 200 characters");
  }
  if (typeof externalRef === "string" && !isSafeText(externalRef)) {
    throw invalidField("form.external_ref", UNSAFE_TEXT_MESSAGE);
  }
  let hints: CardHints = {};
  const card = form.get("card");
  if (card !== null) {
    if (typeof card !== "string") throw invalidField("form.card", "must be a JSON object");
    let value: unknown;
    try {
      value = JSON.parse(card);
    } catch {
      throw invalidField("form.card", "must be a JSON object");
    }
    const result = CardHintsSchema.safeParse(value);
    if (!result.success) throw fromZod(result.error, "form.card", { fullStop: true });
    hints = result.data;
  }
  return finish("form", externalRef, hints, sources);
}

async function finish(
  form: "json" | "form",
  externalRef: string | null,
  hints: CardHints,
  sources: Record<Face, ImageSource>,
): Promise<SubmissionInput> {
  const canonical = async (source: ImageSource) =>
    source.kind === "url" ? { url: source.url } : { sha256: toHex(await sha256Bytes(source.bytes)) };
  const fingerprint = await sha256Hex(
    JSON.stringify({
      external_ref: externalRef,
      card: Object.fromEntries(Object.entries(hints).sort(([a], [b]) => a.localeCompare(b))),
      front_image: await canonical(sources.front_image),
      back_image: await canonical(sources.back_image),
    }),
  );
  return { externalRef, hints, sources, form, fingerprint };
}

/**
 * Each face as checked image bytes: URLs fetched within the limits, then size, emptiness, format
 * and decode budget checked. Anything wrong is a 400 (or 413 for size or decode budget) naming the field.
 */
export async function resolveImages(
  c: Context<AppEnv>,
  input: Pick<SubmissionInput, "sources" | "form">,
): Promise<{ front: EngineImage; back: EngineImage }> {
  const { sources, form: where } = input;
  const resolve = async (face: Face): Promise<EngineImage> => {
    const source = sources[face];
    let bytes: Uint8Array;
    let declared: string | undefined;
    let path = `${where}.${face}`;
    if (source.kind === "url") {
      path = `${where}.${face}.url`;
      const fetched = await fetchImage(source.url, {
        maxBytes: MAX_IMAGE_BYTES,
        timeoutMs: c.var.config.IMAGE_FETCH_TIMEOUT_SECONDS * 1000,
        PRIVATE_HOSTS_ALLOWED: c.var.config.PRIVATE_HOSTS_ALLOWED,
        OUTBOUND_PORTS_ALLOWED: c.var.config.OUTBOUND_PORTS_ALLOWED,
      });
      if (!fetched.ok) {
        if (fetched.tooLarge) throw tooLarge(`The ${face} at its URL is over 12 MB.`);
        throw invalidField(path, `the URL ${fetched.reason}`);
      }
      bytes = fetched.bytes;
    } else {
      if (where === "json") path = `${path}.base64`;
      bytes = source.bytes;
      declared = source.declaredType;
    }
    if (bytes.byteLength > MAX_IMAGE_BYTES) throw tooLarge(`The ${face} is over 12 MB.`);
    if (bytes.byteLength === 0) throw invalidField(path, "the image is empty");
    // The decode budget is checked from the header here, before the photos cost any storage.
    let format: string;
    try {
      format = checkDecodeBudget(bytes, WORKING_MAX_SIDE).format;
    } catch (error) {
      if (error instanceof DecodeBudgetError)
        throw tooLarge(`The ${face} cannot be decoded within limits: ${error.message}.`);
      if (error instanceof DecodeError) throw invalidField(path, error.message);
      throw error;
    }
    const contentType = `image/${format}`;
    if (declared !== undefined && declared !== contentType) {
      throw invalidField(`${where}.${face}.content_type`, `says ${declared} but the data is ${contentType}`);
    }
    return { bytes, contentType };
  };
  const [front, back] = await Promise.all([resolve("front_image"), resolve("back_image")]);
  return { front, back };
}

/** Reads the body, refusing (413) as soon as it passes `maxBytes`; a declared length is checked first. */
async function readBodyCapped(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length"));
  const message = `The request body is over ${Math.round(maxBytes / 1024 / 1024)} MB (12 MB per image).`;
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(message);
  const bytes = await readCapped(request.body, maxBytes);
  if (!bytes) throw tooLarge(message);
  return bytes;
}

async function sha256Bytes(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}
