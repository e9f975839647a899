// Reading bodies that arrive from outside (request bodies, fetched images) without trusting their size.
import { MAX_IMAGE_BYTES } from "../storage/images";

/**
 * The largest request body any route needs: two 12 MB images as base64 (4/3 of their size) and
 * 64 KiB for the rest of a JSON body. Every route is held to it; most to far less.
 */
export const MAX_REQUEST_BODY_BYTES = 2 * Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 64 * 1024;

/** The stream's bytes, or null as soon as they pass `maxBytes` (the rest is never read). */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Standard padded base64 of the bytes (32 KiB at a time, so a 12 MB image never spreads 12 M arguments). */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

type FromBase64 = (value: string) => Uint8Array;
// Where the runtime has it (TC39 Uint8Array.fromBase64), bytes are decoded without the intermediate
// binary string atob makes: for a 12 MB image that is 12 MB less at the peak.
const fromBase64 = (Uint8Array as unknown as { fromBase64?: FromBase64 }).fromBase64;

/** Standard base64 (whitespace ignored, a `data:` URL prefix stripped), or null when it is not. */
export function decodeBase64(value: string): Uint8Array | null {
  const data = value.replace(/^data:[^,]*;base64,/, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 === 1) return null;
  if (fromBase64) {
    try {
      // Unpadded input is valid base64 too; fromBase64 wants it padded.
      return fromBase64(data.length % 4 === 0 ? data : data + "=".repeat(4 - (data.length % 4)));
    } catch {
      return null;
    }
  }
  try {
    const binary = atob(data);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}
