// A catalog card's reference image: the card in it, and the perceptual hash it contributes to
// identification. Catalog images are usually scans cropped to the card (the image's own shape is a
// card format's); an operator may also upload a photo of the card on a table.
import { decodeImage } from "./decode";
import type { CardFormat } from "./evidence";
import { findCardOutline } from "./find-card";
import { recogniseFormat } from "./formats";
import type { Quad } from "./geometry";
import type { RgbaImage } from "./image";
import { perceptualHash } from "./phash";
import { orientCard, unwarpCard } from "./rectify";
import { flatCard } from "./rectify-card";

export function referenceHash(bytes: Uint8Array): string {
  const decoded = decodeImage(bytes, 1600);
  return perceptualHash(referenceCard(decoded.image)?.flat ?? flatCard(decoded.image) ?? decoded.image);
}

/**
 * The card in a reference image, flat, with its format: the whole image when it is a scan cropped
 * to the card (its proportions are a format's within FORMAT_TOLERANCE), else the card found in it
 * when its outline has a format's proportions. Null otherwise.
 */
export function referenceCard(image: RgbaImage): { flat: RgbaImage; format: CardFormat } | null {
  const cropped = recogniseFormat(image.height / image.width);
  if (cropped.ok) {
    const whole: Quad = [
      { x: 0, y: 0 },
      { x: image.width, y: 0 },
      { x: image.width, y: image.height },
      { x: 0, y: image.height },
    ];
    return { flat: unwarpCard(image, whole, cropped.format), format: cropped.format };
  }
  const found = findCardOutline(image);
  if (!found.ok) return null;
  const oriented = orientCard(found.outline.corners, image.width, image.height);
  const match = recogniseFormat(oriented.aspect);
  return match.ok ? { flat: unwarpCard(image, oriented.corners, match.format), format: match.format } : null;
}
