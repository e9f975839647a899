// The perceptual hash a catalog card's reference image contributes to identification: the flat
// card if the image is a photo with the card on a table, the whole image if it is a scan.
import { decodeImage } from "./decode";
import { perceptualHash } from "./phash";
import { flatCard } from "./rectify-card";

export function referenceHash(bytes: Uint8Array): string {
  const decoded = decodeImage(bytes, 1600);
  return perceptualHash(flatCard(decoded.image) ?? decoded.image);
}
