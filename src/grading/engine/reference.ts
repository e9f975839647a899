// The perceptual hash a catalog card's reference image contributes to identification: the flat
// card if the image is a photo with the card on a table, the whole image if it is a scan.
import { decodeImage } from "./decode";
import { findCardOutline, unwarpCard } from "./geometry";
import { perceptualHash } from "./phash";

export function referenceHash(bytes: Uint8Array): string {
  const decoded = decodeImage(bytes, 1600);
  const outline = findCardOutline(decoded.image);
  return perceptualHash(outline.ok ? unwarpCard(decoded.image, outline.outline.corners) : decoded.image);
}
