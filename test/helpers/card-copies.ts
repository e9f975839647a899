// Copies of one printed card, photographed more than once: the set the card fingerprint is
// measured on. A design fixes the artwork and the printed frame's size; each copy was cut at its
// own offset (front and back centering differ copy to copy, as sheets are cut within tenths of a
// millimetre) and has its own wear; each photo puts the copy on another table, at another angle,
// distance and light, with its own JPEG quality.
import type { CardScene } from "./card-images";
import { seededRandom } from "./seeded-random.ts";

type Rgb = readonly [number, number, number];

const TABLES: { color: Rgb; texture: CardScene["texture"] }[] = [
  { color: [122, 82, 50], texture: "wood" },
  { color: [40, 60, 110], texture: "cloth" },
  { color: [30, 30, 32], texture: "plain" },
  { color: [70, 120, 70], texture: "cloth" },
  { color: [150, 150, 155], texture: "plain" },
  { color: [196, 160, 112], texture: "wood" },
];
const BORDERS: Rgb[] = [
  [245, 200, 40],
  [200, 30, 40],
  [20, 80, 160],
  [248, 248, 244],
];
const ARTS: Rgb[] = [
  [40, 90, 160],
  [180, 60, 60],
  [60, 140, 80],
  [90, 60, 130],
];

const contrast = (a: Rgb, b: Rgb) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

export interface CopyPhoto {
  design: number;
  copy: number;
  photo: number;
  front: CardScene;
  back: CardScene;
  quality: number;
}

/** `designs` × `copies` × `photos` photo pairs (front and back), deterministic for a seed. */
export function cardCopyPhotos(designs: number, copies: number, photos: number, seed: number): CopyPhoto[] {
  const random = seededRandom(seed);
  const between = (low: number, high: number) => low + random() * (high - low);
  const out: CopyPhoto[] = [];
  for (let design = 0; design < designs; design++) {
    const borderColor = BORDERS[design % BORDERS.length] as Rgb;
    const artColor = ARTS[(design * 3) % ARTS.length] as Rgb;
    const artSeed = 1000 + design * 7919;
    // The printed frame's size is the design's: only where the cut falls differs between copies.
    const totalX = between(4.5, 7.5);
    const totalY = between(4.5, 8);
    const backTotalX = between(5, 7);
    const backTotalY = between(5, 7);
    for (let copy = 0; copy < copies; copy++) {
      const shareX = between(0.36, 0.64);
      const shareY = between(0.36, 0.64);
      const backShareX = between(0.4, 0.6);
      const backShareY = between(0.4, 0.6);
      const wear = { edgeChips: copy % 3, cornerWhitening: copy % 2 === 1 ? 0.5 : 0 };
      for (let photo = 0; photo < photos; photo++) {
        let table = TABLES[Math.floor(random() * TABLES.length)] ?? TABLES[0];
        if (!table || contrast(table.color, borderColor) < 60) table = TABLES[(design + 2) % TABLES.length];
        if (!table) throw new Error("no table");
        const canvasWidth = 1000 + Math.round(random() * 4) * 100;
        const canvasHeight = Math.round(canvasWidth * 0.75);
        const pose: CardScene = {
          canvasWidth,
          canvasHeight,
          cardWidth: Math.round(canvasHeight * between(0.4, 0.5)),
          centerX: between(0.45, 0.55),
          centerY: between(0.46, 0.54),
          rotation: between(-3, 3),
          borders: {
            left: totalX * shareX,
            right: totalX * (1 - shareX),
            top: totalY * shareY,
            bottom: totalY * (1 - shareY),
          },
          borderColor,
          artColor,
          background: table.color,
          texture: table.texture,
          noise: between(0, 5),
          lightFalloff: between(0, 0.25),
          exposure: between(0.85, 1.05),
          keystone: random() < 0.4 ? between(0, 0.03) : 0,
          shadow: random() < 0.4 ? between(0.02, 0.05) : 0,
          seed: artSeed,
          wear,
        };
        const back: CardScene = {
          ...pose,
          borders: {
            left: backTotalX * backShareX,
            right: backTotalX * (1 - backShareX),
            top: backTotalY * backShareY,
            bottom: backTotalY * (1 - backShareY),
          },
          artColor: [60, 70, 150],
          seed: artSeed + 7919,
        };
        const quality = [70, 80, 90, 95][Math.floor(random() * 4)] ?? 90;
        out.push({ design, copy, photo, front: pose, back, quality });
      }
    }
  }
  return out;
}
