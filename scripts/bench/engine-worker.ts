// A Worker that only runs the engine, for the scripts that measure it in workerd itself:
// - POST / (`npm run bench:engine-memory`): grades a pair, so the engine's memory can be read off
//   the workerd process that runs it. Body: 4-byte big-endian length of the front JPEG, the front
//   JPEG, then the back JPEG. Answers the grade's status and the milliseconds it took.
// - POST /face?name=front|back (`npm run measure`): reads one photo as one face. Body: the photo as
//   uploaded. Answers what the engine makes of it (test/helpers/face-outcome.ts) and the milliseconds.
//   With `variant` (`npm run measure -- --stability`; scripts/lib/photo-variants.ts), reads the
//   photo made again so instead: mirrored, turned half round, smaller, at half its size, recompressed,
//   under a warm or a cool cast, or a plain copy.
import { BuiltinEngine } from "../../src/grading/engine/builtin";
import { DecodeError } from "../../src/grading/engine/image-header";
import { faceOutcome } from "../../test/helpers/face-outcome";
import { isVariant, VARIANTS } from "../lib/photo-variants";
import { photoVariant } from "./photo-variant";

const engine = new BuiltinEngine();

export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== "POST") return new Response("POST a pair, or a photo to /face", { status: 405 });
    const url = new URL(request.url);
    const body = new Uint8Array(await request.arrayBuffer());
    const started = Date.now();
    if (url.pathname === "/face") {
      const name = url.searchParams.get("name") === "back" ? "back" : "front";
      const variant = url.searchParams.get("variant");
      if (variant !== null && !isVariant(variant)) {
        return new Response(`variant must be one of ${VARIANTS.join(", ")}`, { status: 400 });
      }
      let bytes: Uint8Array = body;
      if (variant) {
        try {
          bytes = await photoVariant(body, variant);
        } catch (error) {
          const detail = error instanceof DecodeError ? error.message : "unreadable image data";
          return new Response(`the photo could not be decoded to make it ${variant}: ${detail}`, { status: 400 });
        }
      }
      const outcome = faceOutcome(bytes, name);
      return Response.json({ outcome, ms: Date.now() - started });
    }
    const frontLength = new DataView(body.buffer).getUint32(0);
    const front = body.subarray(4, 4 + frontLength);
    const back = body.subarray(4 + frontLength);
    const result = await engine.grade({
      front: { bytes: front, contentType: "image/jpeg" },
      back: { bytes: back, contentType: "image/jpeg" },
    });
    return Response.json({ status: result.status, ms: Date.now() - started });
  },
} satisfies ExportedHandler;
