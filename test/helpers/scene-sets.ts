// Deterministic sets of drawn card photos for accuracy tests and the benchmark.
import type { CardScene } from "./card-images";
import { seededRandom } from "./seeded-random.ts";

type Rgb = readonly [number, number, number];

const BACKGROUNDS: { color: Rgb; texture: CardScene["texture"]; name: string }[] = [
  { color: [122, 82, 50], texture: "wood", name: "walnut desk" },
  { color: [196, 160, 112], texture: "wood", name: "light oak" },
  { color: [40, 60, 110], texture: "cloth", name: "blue cloth" },
  { color: [30, 30, 32], texture: "plain", name: "black desk mat" },
  { color: [70, 120, 70], texture: "cloth", name: "green playmat" },
  { color: [150, 150, 155], texture: "plain", name: "grey table" },
  { color: [215, 205, 185], texture: "cloth", name: "light beige cloth" },
  { color: [222, 218, 210], texture: "plain", name: "white desk" },
];

const BORDERS: Rgb[] = [
  [248, 248, 244], // white
  [245, 200, 40], // yellow (Pokémon)
  [200, 30, 40], // red
  [20, 80, 160], // blue
  [25, 25, 28], // black
];

const ARTS: Rgb[] = [
  [40, 90, 160],
  [180, 60, 60],
  [60, 140, 80],
  [220, 180, 120],
  [90, 60, 130],
];

/** A border colour is unusable on a background it nearly matches; the set avoids that pairing. */
function contrast(a: Rgb, b: Rgb): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

export interface SceneCase {
  name: string;
  scene: CardScene;
  quality: number;
}

/** `count` varied clean photos: centering from 65/35 to 35/65, ±3° rotation, noise, uneven light. */
export function cleanScenes(count: number, seed = 2026): SceneCase[] {
  const random = seededRandom(seed);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)] as T;
  const cases: SceneCase[] = [];
  while (cases.length < count) {
    const background = pick(BACKGROUNDS);
    const borderColor = pick(BORDERS);
    // Light borders on light tables are in the set down to a colour difference of 45 (a white
    // border on a white desk); closer than that is the documented refusal.
    if (contrast(borderColor, background.color) < 45) continue;
    let artColor = pick(ARTS);
    if (contrast(artColor, borderColor) < 90)
      artColor = [255 - borderColor[0], 255 - borderColor[1], 255 - borderColor[2]];
    const totalX = 4.5 + random() * 3; // mm of border left + right
    const totalY = 4.5 + random() * 3.5;
    const shareX = 0.35 + random() * 0.3;
    const shareY = 0.35 + random() * 0.3;
    const canvasWidth = 1000 + Math.round(random() * 4) * 100;
    const canvasHeight = Math.round(canvasWidth * 0.75);
    const scene: CardScene = {
      canvasWidth,
      canvasHeight,
      cardWidth: Math.round(canvasHeight * (0.42 + random() * 0.12)),
      centerX: 0.45 + random() * 0.1,
      centerY: 0.46 + random() * 0.08,
      rotation: (random() * 2 - 1) * 3,
      borders: {
        left: totalX * shareX,
        right: totalX * (1 - shareX),
        top: totalY * shareY,
        bottom: totalY * (1 - shareY),
      },
      borderColor,
      artColor,
      background: background.color,
      texture: background.texture,
      noise: random() * 5,
      lightFalloff: random() * 0.25,
      seed: Math.floor(random() * 1e9),
      shadow: random() < 0.4 ? 0.02 + random() * 0.03 : 0,
      keystone: random() < 0.4 ? random() * 0.03 : 0,
    };
    const quality = [70, 80, 90, 95][Math.floor(random() * 4)] ?? 90;
    cases.push({
      name: `#${cases.length + 1} ${background.name}, q${quality}, ${scene.rotation?.toFixed(1)}°`,
      scene,
      quality,
    });
  }
  return cases;
}

/** The benchmark photo: a yellow-bordered card on walnut, half the photo's height, slightly turned. */
export function benchScene(width: number, height: number): CardScene {
  return {
    canvasWidth: width,
    canvasHeight: height,
    cardWidth: Math.round(height * 0.5),
    rotation: 1.2,
    borders: { left: 3.4, right: 2.8, top: 3, bottom: 3.3 },
    borderColor: [245, 200, 40],
    artColor: [40, 90, 160],
    background: [120, 80, 50],
    texture: "wood",
    noise: 3,
    lightFalloff: 0.12,
    seed: 3,
  };
}

/** A kind of photo in the accuracy set; each category is reported as one row. */
export type SceneCategory = "designs" | "tables" | "lighting" | "camera" | "landscape" | "worn" | "border print";

export interface RealisticCase extends SceneCase {
  category: SceneCategory;
  /** Back of the card (same pose). */
  back: CardScene;
  /** For worn cards, the subgrades the drawn wear must bring to 8 or below. */
  worn: ("corners" | "edges" | "surface")[];
}

type Bar = NonNullable<CardScene["clutter"]>[number];
const bar = (from: readonly [number, number], to: readonly [number, number], color: Rgb, width: number): Bar => ({
  from,
  to,
  color,
  width,
  soft: 3,
});

/**
 * Things lying on a desk around a card in the middle of a portrait photo (shares of the canvas):
 * two pencils, a ruler, a laptop's edge, the desk's edge and a pen, their sides soft (nearer the
 * lens than the card's plane, out of focus). Each thick soft side gives a bundle of straight lines,
 * all longer than the card's edges.
 */
export const DESK_CLUTTER: Bar[] = [
  bar([0.3, 0.06], [0.95, 0.24], [170, 40, 40], 22),
  bar([0.45, 0.13], [1.0, 0.38], [200, 90, 110], 22),
  bar([0.05, 0.02], [0.85, 0.1], [120, 125, 135], 40),
  bar([0.93, 0.0], [0.93, 1.0], [190, 190, 195], 60),
  bar([0.03, 0.0], [0.03, 1.0], [60, 45, 35], 30),
  bar([0.2, 0.85], [0.7, 0.8], [150, 150, 160], 16),
];

/**
 * DESK_CLUTTER and four more (a pen, a sheet's edge, a phone, a pencil), all in focus: their sharp
 * sides close a rectangle of about a card's proportions far around the card.
 */
export const DESK_CLUTTER_AROUND: Bar[] = [
  ...DESK_CLUTTER,
  bar([0.1, 0.95], [0.8, 0.7], [40, 60, 150], 30),
  bar([0.0, 0.6], [0.25, 0.15], [230, 220, 200], 50),
  bar([0.15, 0.99], [0.75, 0.99], [20, 20, 20], 25),
  bar([0.78, 0.45], [0.86, 0.95], [90, 140, 60], 18),
].map((item) => ({ ...item, soft: 1 }));

/** Names of the committed photos (test/fixtures/photos), in the order the sets cycle through them. */
export const ART_NAMES = ["astronaut", "coffee", "chelsea", "rocket"] as const;
export const TABLE_NAMES = ["gravel", "brick", "grass"] as const;

interface RealisticOptions {
  /** Decoded photos by name: art and tables (test/helpers/photos.ts loads them). */
  art: (name: (typeof ART_NAMES)[number]) => CardScene["artPhoto"];
  table: (name: (typeof TABLE_NAMES)[number]) => CardScene["tablePhoto"];
}

/**
 * Phone-like photos of cards with photographic art on photographed tables, in categories: card
 * designs (thin full-bleed border, coloured, white, dark backs), tables, lighting (shadow, glare,
 * colour cast, vignette, uneven light), camera (tilt, keystone, blur, noise, JPEG 60), landscape
 * (card lying sideways, top toward the left of the frame) and drawn wear. Seeded: the same cases
 * every run.
 */
export function realisticScenes(options: RealisticOptions, perCategory = 5, seed = 1010): RealisticCase[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const tables: { color: Rgb; name: string }[] = [
    { color: [120, 84, 56], name: "brown" },
    { color: [150, 150, 150], name: "grey" },
    { color: [60, 90, 60], name: "green" },
    { color: [200, 190, 170], name: "beige" },
    { color: [45, 45, 50], name: "dark" },
  ];
  const cases: RealisticCase[] = [];
  // "border print" comes last, so the cases before it are the same as before it was added.
  const categories: SceneCategory[] = ["designs", "tables", "lighting", "camera", "landscape", "worn", "border print"];
  for (const category of categories) {
    for (let i = 0; i < perCategory; i++) {
      const design = category === "designs" ? i % 4 : Math.floor(random() * 4);
      // 0: thin full-bleed border; 1: coloured border; 2: white border; 3: coloured front, dark back.
      let borderColor: Rgb = design === 2 ? [246, 245, 240] : pick(BORDERS.slice(1, 4));
      const table = pick(tables);
      if (contrast(borderColor, table.color) < 60) borderColor = design === 2 ? [20, 80, 160] : [246, 245, 240];
      const thin = design === 0;
      const totalX = thin ? 2 + random() : 4.5 + random() * 3;
      const totalY = thin ? 2 + random() : 4.5 + random() * 3.5;
      const shareX = 0.38 + random() * 0.24;
      const shareY = 0.38 + random() * 0.24;
      const canvasWidth = 1200;
      const canvasHeight = 900;
      const landscape = category === "landscape";
      const scene: CardScene = {
        canvasWidth: landscape ? 1200 : canvasWidth,
        canvasHeight,
        cardWidth: Math.round(canvasHeight * (landscape ? 0.5 : 0.46 + random() * 0.1)),
        centerX: 0.46 + random() * 0.08,
        centerY: 0.47 + random() * 0.06,
        // Landscape: lying sideways with its top toward the left edge of the frame.
        rotation: (landscape ? -90 : 0) + (random() * 2 - 1) * (category === "camera" ? 6 : 2.5),
        borders: {
          left: totalX * shareX,
          right: totalX * (1 - shareX),
          top: totalY * shareY,
          bottom: totalY * (1 - shareY),
        },
        borderColor,
        artColor: [128, 128, 128],
        artPhoto: options.art(ART_NAMES[(i + cases.length) % ART_NAMES.length] ?? "astronaut"),
        background: table.color,
        tablePhoto: options.table(TABLE_NAMES[(i + cases.length) % TABLE_NAMES.length] ?? "gravel"),
        tableScale: 0.35 + random() * 0.3,
        noise: 1 + random() * 3,
        lightFalloff: random() * 0.15,
        seed: Math.floor(random() * 1e9),
      };
      if (category === "lighting") {
        const kind = i % 4;
        if (kind === 0) scene.shadow = 0.03 + random() * 0.02;
        if (kind === 1) scene.glare = { x: 0.2 + random() * 0.6, y: 0.2 + random() * 0.2, radius: 0.5, strength: 0.35 };
        if (kind === 2) scene.colorCast = random() < 0.5 ? [1.1, 1, 0.85] : [0.88, 0.97, 1.1];
        if (kind === 3) {
          scene.vignette = 0.3;
          scene.lightFalloff = 0.3;
        }
      }
      let quality = 85;
      if (category === "camera") {
        const kind = i % 4;
        if (kind === 0) scene.keystone = 0.02 + random() * 0.01;
        if (kind === 1) scene.blur = 1;
        if (kind === 2) scene.noise = 6;
        if (kind === 3) quality = 60;
      }
      if (category === "border print") printInBorder(scene, i, random);
      const worn: RealisticCase["worn"] = [];
      if (category === "worn") {
        const kind = i % 4;
        if (kind === 0) {
          scene.wear = { cornerWhitening: 1 };
          // White stock under a white border does not show whitening (to the engine or to a
          // person): there the same wear shows as corners worn round (a 4.5 mm radius, not the cut 3 mm).
          if (Math.min(...borderColor) > 200) scene.cornerRadius = 4.5;
          worn.push("corners");
        }
        if (kind === 1) {
          // On a white border the same wear shows as chips out of the edge, not whitened stock.
          scene.wear = { edgeChips: 6, chipsMissing: Math.min(...borderColor) > 200 };
          worn.push("edges");
        }
        if (kind === 2) {
          scene.wear = { scratches: 4 };
          worn.push("surface");
        }
        if (kind === 3) {
          scene.wear = { creases: 1 };
          worn.push("surface");
        }
      }
      const back: CardScene = {
        ...scene,
        artPhoto: undefined,
        borders: { left: 3, right: 3.2, top: 3.1, bottom: 3 },
        borderColor: design === 3 ? [28, 30, 40] : scene.borderColor,
        artColor: design === 3 ? [70, 40, 40] : [60, 70, 150],
        seed: (scene.seed ?? 1) + 7919,
        borderPrint: undefined,
        collectorBar: undefined,
      };
      if (design === 3 && contrast(back.borderColor, table.color) < 60) back.borderColor = [20, 40, 110];
      cases.push({
        category,
        name: `${category} #${i + 1}: ${["thin border", "coloured", "white", "dark back"][design]}, ${table.name} table, q${quality}`,
        scene,
        back,
        quality,
        worn,
      });
    }
  }
  return cases;
}

/**
 * Small print in the bottom border, as real cards carry it. Cases 1–4: a copyright or credit line
 * (one row 0.8 mm tall, or two of 0.55 mm) inside a bottom border of 2.6–3.4 mm, ending at least
 * 0.6 mm before the frame and within the top border's depth (a modern Pokémon card's bottom
 * border). Case 5: a modern Magic
 * card's collector bar, two rows of print in a bottom border about 6.5 mm deep, a design whose
 * bottom border is wider than the others by intent and whose top is as wide as its sides, here
 * shifted along the card by up to 0.4 mm. Dark print on a light border, light print on a dark one.
 */
const BAR_SHIFTS_MM = [-0.3, 0.2, 0.4, -0.1];

function printInBorder(scene: CardScene, i: number, random: () => number): void {
  const light = Math.max(...scene.borderColor) > 150;
  const color: Rgb = light ? [40, 40, 46] : [236, 234, 226];
  if (i % 5 === 4) {
    // Printed as the design does, the top as wide as the sides' mean, then shifted along the
    // card (a miscut; no random draw, so the cases after it stay as they were).
    const shift = BAR_SHIFTS_MM[Math.floor(i / 5) % BAR_SHIFTS_MM.length] ?? 0;
    const sides = (scene.borders.left + scene.borders.right) / 2;
    scene.borders = { ...scene.borders, top: sides + shift, bottom: 6.5 - shift };
    scene.collectorBar = true;
    scene.borderPrint = {
      rows: [
        { from: 1.6, to: 2.5, start: 4, end: 31 },
        { from: 3.2, to: 4.1, start: 4, end: 24 },
      ],
      color,
    };
    return;
  }
  const top = 2.4 + random() * 0.8;
  const from = 0.6 + random() * 0.3;
  const start = 5 + random() * 10;
  const twoRows = i % 5 === 2;
  const rows = twoRows
    ? [
        { from, to: from + 0.55, start, end: start + 18 },
        { from: from + 0.8, to: from + 1.35, start: start + 8, end: 52 },
      ]
    : [{ from, to: from + 0.8, start, end: start + 30 + random() * 12 }];
  // Printed clear of the frame by at least 0.6 mm, as cards are designed.
  const bottom = Math.max(2.6 + random() * 0.8, (rows.at(-1)?.to ?? 0) + 0.6);
  scene.borders = { ...scene.borders, top, bottom };
  scene.borderPrint = { rows, color };
}

/**
 * A modern card's face (card-images.ts, `layout`) in five border and panel colours: a body panel
 * inside the border, the art in a window across its upper part, a pale text box of small print
 * below it. The panel below the window, round the text box, has a card's shape lying sideways
 * (57 × 40 mm); a silver border may differ from a grey or white table by little more than its
 * brightness. The first lies on a plain white table.
 */
export const MODERN_LAYOUTS: { name: string; border: Rgb; panel: Rgb; whiteTable?: boolean }[] = [
  {
    name: "silver border, yellow panel, white table",
    border: [195, 196, 200],
    panel: [228, 205, 95],
    whiteTable: true,
  },
  { name: "silver border, green panel", border: [195, 196, 200], panel: [160, 195, 120] },
  { name: "yellow border, blue panel", border: [240, 205, 50], panel: [110, 160, 215] },
  { name: "black border, blue-grey panel", border: [25, 25, 28], panel: [120, 140, 175] },
  { name: "white border, red panel", border: [246, 245, 240], panel: [200, 80, 70] },
];

/** `c` (a realisticScenes case) with its front laid out as MODERN_LAYOUTS[variant]; its back unchanged. */
export function withModernLayout(c: RealisticCase, variant: number): RealisticCase {
  const layout = MODERN_LAYOUTS[variant % MODERN_LAYOUTS.length] ?? (MODERN_LAYOUTS[0] as (typeof MODERN_LAYOUTS)[0]);
  const scene: CardScene = {
    ...c.scene,
    borderColor: layout.border,
    layout: { panel: layout.panel, rim: [200, 190, 150], text: [240, 236, 222], inset: 2, top: 6, bottom: 42 },
  };
  if (layout.whiteTable) {
    scene.tablePhoto = undefined;
    scene.background = [228, 226, 222];
    scene.texture = "plain";
  }
  return { ...c, scene, name: `${c.name}, modern layout: ${layout.name}` };
}

/** The body colours of Yu-Gi-Oh! cards: effect, spell, trap, normal, fusion and ritual. */
const RIM_PANELS: Rgb[] = [
  [200, 120, 60],
  [40, 120, 100],
  [170, 70, 120],
  [215, 180, 90],
  [120, 96, 170],
  [70, 120, 185],
];

/**
 * `c` (a realisticScenes case) as a Yu-Gi-Oh! card: 59 × 86 mm, its border a bevelled rim
 * (card-images.ts, `bevel`) shading from grey at the cut to near black at the body, 1.3 mm plus a
 * quarter of the case's own border wide (1.8–2.4 mm), the body one of RIM_PANELS[variant] with
 * the art in a window and a text box below. Its back is the same size, its border the same rim.
 * Nothing is printed in the rim (`borderPrint` and a collector bar are dropped), as on the cards: widened into a rim, a
 * case's rows of border print would cross the rim's inner edge, where a row within 0.3 mm of it is
 * not told from it (frame.ts; `docs/engine.md`, step 2, *A bevelled rim*).
 */
export function withBevelledRim(c: RealisticCase, variant: number): RealisticCase {
  const rim = (scene: CardScene): CardScene => {
    const widen = (w: number) => 1.3 + 0.25 * w;
    const { left, right, top, bottom } = scene.borders;
    return {
      ...scene,
      cardMm: { width: 59, height: 86 },
      borders: { left: widen(left), right: widen(right), top: widen(top), bottom: widen(bottom) },
      borderColor: [112, 116, 128],
      bevel: [34, 38, 52],
    };
  };
  const scene: CardScene = {
    ...rim(c.scene),
    borderPrint: undefined,
    collectorBar: undefined,
    layout: {
      panel: RIM_PANELS[variant % RIM_PANELS.length] ?? [200, 120, 60],
      rim: [200, 190, 150],
      text: [240, 236, 222],
      inset: 4,
      top: 9,
      bottom: 50,
    },
  };
  return { ...c, scene, back: rim(c.back), name: `${c.name}, bevelled rim` };
}
