// Photos to submit and the requests that submit them.
import { encodeBase64 } from "../../src/net/body";
import { backOf, type CardScene, drawCardScene, encodeJpeg } from "./card-images";
import { call } from "./request";

/** A clean raw card on a wood table, 55/45 left-right: the engine grades it. */
export const RAW_CARD: CardScene = {
  canvasWidth: 1000,
  canvasHeight: 750,
  cardWidth: 380,
  rotation: 1.5,
  borders: { left: 3.3, right: 2.7, top: 3, bottom: 3.2 },
  borderColor: [245, 200, 40],
  artColor: [40, 90, 160],
  background: [120, 80, 50],
  texture: "wood",
  noise: 2,
  lightFalloff: 0.1,
  seed: 11,
};

/** RAW_CARD with some fields changed: the one base scene for tests that need another photo. */
export const sceneWith = (overrides: Partial<CardScene>): CardScene => ({ ...RAW_CARD, ...overrides });

const drawn = new Map<string, Uint8Array>();

/** The JPEG of a scene, drawn once per test file. */
export function photo(scene: CardScene, quality = 90): Uint8Array {
  const key = JSON.stringify([scene, quality]);
  let bytes = drawn.get(key);
  if (!bytes) {
    bytes = encodeJpeg(drawCardScene(scene), quality);
    drawn.set(key, bytes);
  }
  return bytes;
}

export const rawPair = (scene: CardScene = RAW_CARD) => ({ front: photo(scene), back: photo(backOf(scene)) });

export function jsonSubmission(pair: { front: Uint8Array; back: Uint8Array }, extra: Record<string, unknown> = {}) {
  return {
    front_image: { base64: encodeBase64(pair.front) },
    back_image: { base64: encodeBase64(pair.back) },
    ...extra,
  };
}

/** POSTs to the public API with an x-api-key; a plain object body is sent as JSON. */
export async function callPublic(
  path: string,
  key: string | null,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers = new Headers(init.headers);
  if (key !== null) headers.set("x-api-key", key);
  let body: BodyInit | undefined;
  if (init.body instanceof FormData || typeof init.body === "string" || init.body instanceof Uint8Array) {
    body = init.body as BodyInit;
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return call(`/api/public/v1${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
}
