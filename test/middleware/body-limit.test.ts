import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_REQUEST_BODY_BYTES } from "../../src/net/body";
import { createPartner, createPublicClient } from "../helpers/factories";

const MiB = 1024 * 1024;
const ADMIN = "Bearer test-admin-token-0123456789";

/** A chunked body (no Content-Length): `prefix`, then 1 MiB chunks of `fill` up to `totalMiB`, then `suffix`. */
function streamed(totalMiB: number, options: { prefix?: string; fill?: number; suffix?: string } = {}) {
  const encoder = new TextEncoder();
  const chunk = new Uint8Array(MiB).fill(options.fill ?? 0x20);
  const pulled = { chunks: 0 };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (options.prefix) controller.enqueue(encoder.encode(options.prefix));
    },
    pull(controller) {
      if (pulled.chunks >= totalMiB) {
        if (options.suffix) controller.enqueue(encoder.encode(options.suffix));
        return controller.close();
      }
      pulled.chunks++;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled };
}

async function send(path: string, body: BodyInit, headers: Record<string, string>) {
  const res = await exports.default.fetch(`https://api.test${path}`, {
    method: "POST",
    headers,
    body,
    // @ts-expect-error: workerd needs duplex for a streamed request body
    duplex: "half",
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), requestId: res.headers.get("x-request-id") };
}

describe("request body limit (every route)", { timeout: 60_000 }, () => {
  it("is two 12 MB images as base64 plus 64 KiB", () => {
    expect(MAX_REQUEST_BODY_BYTES).toBe(2 * Math.ceil((12 * MiB * 4) / 3) + 64 * 1024);
  });

  it("refuses a declared Content-Length over it with 413 before reading, even where no body is expected", async () => {
    const res = await send("/health", new Uint8Array(MAX_REQUEST_BODY_BYTES + 1), {
      "content-type": "application/octet-stream",
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({
      code: "payload_too_large",
      message: `Request bodies are limited to ${MAX_REQUEST_BODY_BYTES} bytes (32.06 MiB).`,
    });
    expect(res.requestId).toBe(res.body.error.request_id);
  });

  it("cuts a chunked JSON body off where it crosses the limit and answers 413, not a parse error (operator API)", async () => {
    const { stream, pulled } = streamed(40, { prefix: '{"name":"', suffix: '"}' });
    const res = await send("/admin/v1/clients", stream, { authorization: ADMIN, "content-type": "application/json" });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
    expect(pulled.chunks).toBeLessThan(40);
  });

  it("answers 413 when the excess is in a text field of a submission, JSON or multipart, chunked", async () => {
    const client = await createPublicClient();
    const json = streamed(40, { prefix: '{"external_ref":"', fill: 0x61, suffix: '"}' });
    const jsonRes = await send("/api/public/v1/gradings", json.stream, {
      "x-api-key": client.key,
      "content-type": "application/json",
    });
    expect(jsonRes.status).toBe(413);
    expect(jsonRes.body.error.code).toBe("payload_too_large");
    expect(json.pulled.chunks).toBeLessThan(40);

    const boundary = "----limit";
    const form = streamed(40, {
      prefix: `--${boundary}\r\ncontent-disposition: form-data; name="card"\r\n\r\n`,
      fill: 0x61,
      suffix: `\r\n--${boundary}--\r\n`,
    });
    const formRes = await send("/api/public/v1/gradings", form.stream, {
      "x-api-key": client.key,
      "content-type": `multipart/form-data; boundary=${boundary}`,
    });
    expect(formRes.status).toBe(413);
    expect(formRes.body.error.code).toBe("payload_too_large");
    expect(form.pulled.chunks).toBeLessThan(40);
  });

  it("holds the Partner API to 16 KiB, chunked too", async () => {
    const partner = await createPartner();
    const { stream } = streamed(1, { prefix: '{"outcome":"success","url":"https://h.example.com/', suffix: '"}' });
    const res = await send("/v1/webhook-targets", stream, {
      authorization: `Bearer ${partner.key}`,
      "content-type": "application/json",
    });
    expect(res.status).toBe(413);
    expect(res.body.error.message).toBe("Request bodies are limited to 16384 bytes (16 KiB).");
  });
});
