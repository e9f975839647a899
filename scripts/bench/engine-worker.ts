// A Worker that only runs the engine, for the scripts that measure it in workerd itself:
// - POST / (`npm run bench:engine-memory`): grades a pair, so the engine's memory can be read off
//   the workerd process that runs it. Body: 4-byte big-endian length of the front JPEG, the front
//   JPEG, then the back JPEG. Answers the grade's status and the milliseconds it took.
// - POST /face?name=front|back (`npm run measure`): reads one photo as one face. Body: the photo as
//   uploaded. Answers what the engine makes of it (test/helpers/face-outcome.ts) and the milliseconds.
import { BuiltinEngine } from "../../src/grading/engine/builtin";
import { faceOutcome } from "../../test/helpers/face-outcome";

const engine = new BuiltinEngine();

export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== "POST") return new Response("POST a pair, or a photo to /face", { status: 405 });
    const url = new URL(request.url);
    const body = new Uint8Array(await request.arrayBuffer());
    const started = Date.now();
    if (url.pathname === "/face") {
      const name = url.searchParams.get("name") === "back" ? "back" : "front";
      const outcome = faceOutcome(body, name);
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
