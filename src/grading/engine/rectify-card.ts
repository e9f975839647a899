// The card in a photo as a flat, upright image of its own format, or null when no card is found:
// find-card.ts, rectify.ts and formats.ts in one call, for callers that need only the picture
// (reference images for identification, tests, the benchmark).
import { findCardOutline } from "./find-card";
import { recogniseFormat, STANDARD_FORMAT } from "./formats";
import type { RgbaImage } from "./image";
import { orientCard, unwarpCard } from "./rectify";

export function flatCard(image: RgbaImage): RgbaImage | null {
  const found = findCardOutline(image);
  if (!found.ok) return null;
  const oriented = orientCard(found.outline.corners, image.width, image.height);
  const match = recogniseFormat(oriented.aspect);
  return unwarpCard(image, oriented.corners, match.ok ? match.format : STANDARD_FORMAT);
}
