// A Worker that only grades: the target of `npm run bench:engine-memory`, so the engine's memory
// can be read off the workerd process that runs it. Body: 4-byte big-endian length of the front
// JPEG, the front JPEG, then the back JPEG.
import { BuiltinEngine } from "../../src/grading/engine/builtin";

const engine = new BuiltinEngine();

export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== "POST") return new Response("POST a pair", { status: 405 });
    const body = new Uint8Array(await request.arrayBuffer());
    const frontLength = new DataView(body.buffer).getUint32(0);
    const front = body.subarray(4, 4 + frontLength);
    const back = body.subarray(4 + frontLength);
    const started = Date.now();
    const result = await engine.grade({
      front: { bytes: front, contentType: "image/jpeg" },
      back: { bytes: back, contentType: "image/jpeg" },
    });
    return Response.json({ status: result.status, ms: Date.now() - started });
  },
} satisfies ExportedHandler;
