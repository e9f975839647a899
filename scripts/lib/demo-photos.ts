// Demo photos (`npm start`): for four catalog cards, a reference scan (imported into the catalog so
// identification works locally) and a phone photo of the front and back to submit, taken another
// way (another table, angle, light and centering), plus a slabbed card that is refused.
import type { CardScene } from "../../test/helpers/card-images.ts";
import { backOf, drawCardScene, encodeJpeg } from "../../test/helpers/card-images.ts";

type Rgb = readonly [number, number, number];

export interface DemoReferenceCard {
  /** Row id in the seeded catalog (scripts/lib/demo-data.ts). */
  catalogId: number;
  slug: string;
  player: string;
  art: Rgb;
  border: Rgb;
  seed: number;
}

export const DEMO_REFERENCE_CARDS: readonly DemoReferenceCard[] = [
  { catalogId: 1, slug: "ohtani", player: "Shohei Ohtani", art: [40, 90, 160], border: [245, 200, 40], seed: 101 },
  { catalogId: 3, slug: "trout", player: "Mike Trout", art: [170, 40, 50], border: [250, 250, 248], seed: 202 },
  { catalogId: 8, slug: "lebron", player: "LeBron James", art: [90, 40, 130], border: [240, 190, 60], seed: 303 },
  { catalogId: 17, slug: "charizard", player: "Charizard", art: [220, 110, 30], border: [60, 110, 200], seed: 404 },
];

/** A flat, centred scan on a grey backdrop: what a catalog keeps as its reference. */
export function referenceScene(card: DemoReferenceCard): CardScene {
  return {
    canvasWidth: 700,
    canvasHeight: 900,
    cardWidth: 540,
    borders: { left: 3, right: 3, top: 3, bottom: 3 },
    borderColor: card.border,
    artColor: card.art,
    background: [200, 200, 200],
    texture: "plain",
    seed: card.seed,
  };
}

/** A 2 MP phone photo on a walnut desk, turned a little, 56/44 left-right. */
export function photoScene(card: DemoReferenceCard): CardScene {
  return {
    canvasWidth: 1600,
    canvasHeight: 1200,
    cardWidth: 560,
    rotation: 1.8,
    borders: { left: 3.4, right: 2.7, top: 3.1, bottom: 3.3 },
    borderColor: card.border,
    artColor: card.art,
    background: [118, 78, 48],
    texture: "wood",
    noise: 3,
    lightFalloff: 0.12,
    shadow: 0.03,
    seed: card.seed,
  };
}

export const jpeg = (scene: CardScene, quality = 88) => encodeJpeg(drawCardScene(scene), quality);

/** Every demo file by name: `<slug>-reference.jpg`, `<slug>-front.jpg`, `<slug>-back.jpg`, `slab-*.jpg`. */
export function demoPhotoFiles(): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const card of DEMO_REFERENCE_CARDS) {
    files.set(`${card.slug}-reference.jpg`, jpeg(referenceScene(card), 92));
    const photo = photoScene(card);
    files.set(`${card.slug}-front.jpg`, jpeg(photo));
    files.set(`${card.slug}-back.jpg`, jpeg(backOf(photo)));
  }
  const first = DEMO_REFERENCE_CARDS[0];
  if (first) {
    const slab: CardScene = { ...photoScene(first), cardWidth: 420, holder: true };
    files.set("slab-front.jpg", jpeg(slab));
    files.set("slab-back.jpg", jpeg({ ...backOf(slab), holder: true }));
  }
  return files;
}
