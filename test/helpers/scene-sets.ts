// Deterministic sets of drawn card photos for accuracy tests and the benchmark.
import type { CardScene } from "./card-images";

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

function rng(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

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
  const random = rng(seed);
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
