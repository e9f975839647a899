// Wear on a flat (unwarped) face at FLAT_PX_PER_MM, measured only where damage can be told from
// printing. Rules (thresholds below, grading tables in rubric.ts, both in the README's engine
// section):
// - corners and edges are judged on the border's flat ink next to the card's outline: a pixel is
//   worn when it looks like the table (missing material: chips, dings, a rounded-off corner, the
//   silhouette falling short of the ideal 3 mm rounded rectangle; open to the cut, and looked for
//   only where the border's ink differs from the table's colour) or, on a border that is not
//   white, when it is paper-white (whitening). Isolated pixels are noise, not wear: a worn pixel
//   counts only when two of its four neighbours are worn too. A pixel of none of those colours,
//   nor of the border's ink in some light, is not examined (a finger over the card, print in the
//   border). A bevelled rim's ink is its colour at the pixel's own depth (rimInk);
// - the surface (surface.ts) is judged on line-like defects (scratches, creases) wherever the
//   print around them is calm enough for such a line to stand out, borders and flat art alike; a
//   line wholly inside the artwork counts only against the catalog's reference image
//   (reference-difference.ts), since the photo alone cannot tell it from a printed one;
// - every subgrade reports the area it could examine; what could not be examined is not damage.
import type { DefectRegion, FaceName } from "./evidence";
import { SIDES, type Side } from "./frame-side";
import { FLAT_PX_PER_MM, median, selectKth } from "./geometry";
import {
  chromaticityDistance,
  type Rgb,
  type RgbaImage,
  rgbDistance,
  sameInk,
  sameInkOrSheen,
  sameInkUnderSheen,
} from "./image";
import type { FlatSampler } from "./rectify";
import { type ArtLine, measureSurface } from "./surface";

export interface RegionWear {
  /** Area examined, mm². */
  examinedMm2: number;
  /** Area the subgrade judges, mm² (examined or not). */
  regionMm2: number;
  defects: DefectRegion[];
}

export interface FaceWear {
  /** Worn area of the worst corner, mm². */
  worstCornerMm2: number;
  /** Length of the edges that is worn, mm (all four edges). */
  edgeWornMm: number;
  /** Length of line-like surface defects, mm. */
  surfaceLineMm: number;
  /** Lines inside the artwork that count only where the catalog's reference image lacks them (surface.ts). */
  artLines: ArtLine[];
  /** False on a white or very light border: whitening cannot be seen there, only missing material. */
  whiteningMeasurable: boolean;
  corners: RegionWear;
  edges: RegionWear;
  surface: RegionWear;
}

export interface FrameWidths {
  left: number;
  right: number;
  top: number;
  bottom: number;
  /**
   * Where print in the border begins, per side that has it (frame.ts, printStarts; flat-card
   * pixels from the edge): the border from there in is not examined for wear.
   */
  printFrom?: Partial<Record<"left" | "right" | "top" | "bottom", number>>;
  /**
   * The border is a bevelled rim on every side (frame.ts, rim.ts): its colour changes with the
   * depth, and each pixel is judged against the rim's colour at its own depth (rimInk).
   */
  rim?: boolean;
}

const MM = FLAT_PX_PER_MM;
const CORNER_RADIUS_PX = 3 * MM; // standard 3 mm card corner
const CORNER_PATCH_PX = 4 * MM;
// 0.25 mm in from the outline: clear of the anti-aliased edge pixels (2 px at 8 px/mm).
const BAND_FROM_PX = Math.ceil(0.25 * MM);
const BAND_TO_PX = Math.round(1.2 * MM);
/**
 * Border pixels this close to the frame line (0.25 mm) are not examined: on thin borders under a
 * photo's blur their blend of border and art read as missing material along the frame line, in
 * 1 px strips at the corners (corners 8.5 on 4 of 121 pristine drawn cards).
 */
const FRAME_MARGIN_PX = 2;
/**
 * Whitening: a grey-white pixel (chroma at most WHITENING_MAX_CHROMA) that is lighter than the
 * border by WHITENING_LUMA_STEP and differs from the border's colour by WHITENING_MIN_DISTANCE.
 */
const WHITENING_LUMA_STEP = 15;
const WHITENING_MAX_CHROMA = 45;
const WHITENING_MIN_DISTANCE = 60;
/** Outside the cut, the table is looked for this far out (1 and 1.5 mm, past the cut's blur). */
const OUTSIDE_DEPTHS_PX = [MM, 1.5 * MM];
/**
 * The table beside the card may be lit up to this much brighter than its colour read around the
 * card, and differ from its hue by at most MAX_TABLE_HUE_DIFFERENCE (chromaticity; a thumb's skin
 * against a beige table differs by 0.063).
 */
const MAX_TABLE_HUE_DIFFERENCE = 0.05;
const MAX_TABLE_LIFT = 1.25;
/**
 * Missing material is looked for only where the border's ink lies at least this far (RGB distance)
 * from the table's colour: on a real photo a silver border lit along its left side lay 8 from the
 * table read round the card, and its ink read as 5 mm of chips.
 */
const MIN_INK_TABLE_DISTANCE = 30;
/** A pixel this close to the table's colour (or closer than half the border–table distance) is table. */
const MISSING_MAX_DISTANCE = 40;
/**
 * The border's colour a pixel is judged against is read near it, on the border's inner strip (from
 * BAND_TO_PX in, where wear seldom reaches, to INNER_MARGIN_PX short of the frame or of print in
 * the border, at most MAX_INNER_DEPTH_PX deep): each place along the side has the strip's median
 * across it, and the ink near a place is the median of those within LOCAL_BORDER_PX, sampled every
 * LOCAL_STEP_PX (light changes slowly along a side). Light does change along a border: on a real
 * photo of a pristine black-bordered card on wood, the lit end of its left border is 50 levels
 * lighter than the side's median, and against that one colour its ink read as whitening and chips
 * (edges 8.5, corners 9.5). Where the strip is under MIN_INNER_DEPTH_PX deep (a border under 2 mm,
 * or print in it within 2 mm of the cut), the ink is read on the examined band instead
 * (BAND_INK_PX); where that holds fewer than MIN_LOCAL_PIXELS, the face's one colour is used; so
 * it is where the colour read is no shade of that one ink (image.ts, sameInk: a thumb over the
 * border, or whitening reaching that deep all along it).
 */
const LOCAL_BORDER_PX = 3 * MM;
/**
 * Where the inner strip cannot be read, the ink near a place is read on the examined band itself,
 * over this far along the side either way (6 mm): a chip (1–3 mm) is then under a quarter of it.
 */
const BAND_INK_PX = 6 * MM;
const LOCAL_STEP_PX = MM;
const MIN_LOCAL_PIXELS = 40;
/**
 * The border's ink under a strong sheen: a colour read on the inner strip that keeps at least this
 * share of the ink's hue, turned no further than a sheen turns it (image.ts, sameInkUnderSheen,
 * whose own floor of 0.4 tells a separate band from the ink). On a real photo of a yellow-bordered
 * card on a white table, a lamp's sheen pales the left border for 12 mm all the way in to the frame,
 * rgb(160, 149, 122) beside rgb(170, 147, 50): 0.3 of the ink's hue, turned 6°. Judged against the
 * face's one yellow, the paled border lay nearer the table and read as 12 mm of chips (edges 5); and
 * a Pokémon back's blue border paled over its bottom right corner read as 5.4 mm² of missing material
 * and 7.5 mm of chips. A bite out of the edge under such a light still shows the table (a drawn
 * chip of 2 mm is found there), and whitening, paper-white, keeps under a tenth of a yellow's hue.
 */
const MIN_VEILED_HUE_SHARE = 0.2;
/** The inner strip ends this far short of the frame (0.5 mm: a soft photo blurs the frame's step into it). */
const INNER_MARGIN_PX = 0.5 * MM;
/** …and is read only where it is at least this deep (0.25 mm), and at most this deep (1.5 mm). */
const MIN_INNER_DEPTH_PX = 2;
const MAX_INNER_DEPTH_PX = 1.5 * MM;
/** A corner's wear is reported as a defect from this area on (the corners' grade-10 floor, rubric.ts). */
const MIN_CORNER_DEFECT_MM2 = 0.15;
/** An edge position is worn when at least this many denoised worn pixels lie across its band. */
const EDGE_WORN_MIN_PIXELS = 2;

/**
 * Light on the border, not wear: a patch of worn pixels (whitening or the table's colour) of at
 * least MIN_LIGHT_PATCH pixels whose sound border pixels LIGHT_RING_PX around it (0.5–0.75 mm,
 * past a photo's blur) are lifted above their ink by more than LIGHT_RING_SHARE of the patch's own
 * lift is the bright middle of a light falling off smoothly (a glare or a lamp's reflection on a
 * glossy dark border), not paper or table showing through: worn paper and a chip end in a step.
 * Such a patch is not examined. Drawn on a pristine card, a glare of 6–9 mm radius on a navy or
 * black border's corner read as whitening, corners 4–7 (the border's ink is read beyond the 4 mm
 * corner patch, outside such a glare); round its patches (49–241 px) the ring is lifted 0.47–0.59
 * of the patch's lift, against at most 0.12 round drawn whitening and chips (19 worn drawn cards
 * and 12 whitened or chipped on black, navy and blue borders, all still found). Smaller patches
 * are left alone: on a real vintage back, flecks of 7–18 px along its edge have rings lifted
 * 0.23–0.43 by the photo's blur.
 */
const LIGHT_RING_PX = [4, 6] as const;
const LIGHT_RING_SHARE = 0.3;
/** The smallest patch read for light (0.5 mm²), and the fewest sound pixels its ring must hold. */
const MIN_LIGHT_PATCH = 32;
const MIN_LIGHT_RING = 8;

const luma = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;
const round2 = (value: number) => Math.round(value * 100) / 100;

export function measureWear(
  face: FaceName,
  flat: RgbaImage,
  border: [number, number, number],
  background: [number, number, number],
  frame: FrameWidths,
  around: FlatSampler,
  beneath: Rgb | null = null,
): FaceWear {
  const { width: W, height: H, data } = flat;
  const borderChroma = Math.max(...border) - Math.min(...border);
  const whiteningMeasurable = !(luma(...border) > 200 && borderChroma < 40);
  // The border, less the pixels within FRAME_MARGIN_PX of the frame line: those blend the border
  // with the art under the photo's blur, and a blend can take the table's colour.
  // Nor is print in a side's border, from FRAME_MARGIN_PX before where it begins (a pixel in
  // another side's border lies deeper than this side's border and is not in its print).
  const print = frame.printFrom ?? {};
  const beforePrint = (depth: number, from: number | undefined, border: number) =>
    from === undefined || depth < from - FRAME_MARGIN_PX || depth >= border + FRAME_MARGIN_PX;
  const inBorder = (x: number, y: number) =>
    !(
      x >= frame.left - FRAME_MARGIN_PX &&
      x < W - frame.right + FRAME_MARGIN_PX &&
      y >= frame.top - FRAME_MARGIN_PX &&
      y < H - frame.bottom + FRAME_MARGIN_PX
    ) &&
    beforePrint(x, print.left, frame.left) &&
    beforePrint(W - 1 - x, print.right, frame.right) &&
    beforePrint(y, print.top, frame.top) &&
    beforePrint(H - 1 - y, print.bottom, frame.bottom);

  // Just outside the cut beside a pixel (OUTSIDE_DEPTHS_PX out, square to the edge, or from the
  // corner's rounding): the table there, its own colour within MISSING_MAX_DISTANCE or its hue in
  // some light (the card's shadow darkens it), or something lying over the card's edge (a thumb
  // holding it), under which wear cannot be read.
  // A card lying on another (analyse-face.ts, cardOnAnother): beside the cut along the band lies
  // the other card, and a chip there shows it; it counts as the table does.
  const grounds = beneath ? [background, beneath] : [background];
  const outside = new Float64Array(3);
  const tableAt = (x: number, y: number) => {
    around(x, y, outside);
    const [r = 0, g = 0, b = 0] = outside;
    return grounds.some(
      (ground) =>
        rgbDistance(r - ground[0], g - ground[1], b - ground[2]) < MISSING_MAX_DISTANCE ||
        (sameInk(outside, ground, MAX_TABLE_HUE_DIFFERENCE) && luma(r, g, b) <= MAX_TABLE_LIFT * luma(...ground)),
    );
  };
  const tableBeside = (x: number, y: number) => {
    const px = x + 0.5;
    const py = y + 0.5;
    const cx = px < CORNER_PATCH_PX ? CORNER_RADIUS_PX : px > W - CORNER_PATCH_PX ? W - CORNER_RADIUS_PX : null;
    const cy = py < CORNER_PATCH_PX ? CORNER_RADIUS_PX : py > H - CORNER_PATCH_PX ? H - CORNER_RADIUS_PX : null;
    // The point on the cut beside the pixel, and the outward direction there.
    let edge: { x: number; y: number; nx: number; ny: number };
    if (cx !== null && cy !== null) {
      const length = Math.max(1e-6, Math.hypot(px - cx, py - cy));
      const nx = (px - cx) / length;
      const ny = (py - cy) / length;
      edge = { x: cx + nx * CORNER_RADIUS_PX, y: cy + ny * CORNER_RADIUS_PX, nx, ny };
    } else {
      const nearest = Math.min(px, W - px, py, H - py);
      if (nearest === px) edge = { x: 0, y: py, nx: -1, ny: 0 };
      else if (nearest === W - px) edge = { x: W, y: py, nx: 1, ny: 0 };
      else if (nearest === py) edge = { x: px, y: 0, nx: 0, ny: -1 };
      else edge = { x: px, y: H, nx: 0, ny: 1 };
    }
    // Two depths, so one grain of a textured table does not hide the table.
    return OUTSIDE_DEPTHS_PX.some((d) => tableAt(edge.x + edge.nx * d, edge.y + edge.ny * d));
  };

  // 0: not examined, 1: examined and sound, 2: missing material, 3: whitened.
  const here = new Float64Array(3);
  const state = new Uint8Array(W * H);
  const classify = (x: number, y: number, near: BorderInk) => {
    const p = (y * W + x) * 4;
    const r = data[p] ?? 0;
    const g = data[p + 1] ?? 0;
    const b = data[p + 2] ?? 0;
    const { ink, borderLuma, toBackground } = near;
    const dBorder = rgbDistance(r - ink[0], g - ink[1], b - ink[2]);
    // Missing material: the table's own colour (within MISSING_MAX_DISTANCE, or half the
    // border–table distance on a contrasting table), clearly away from the border's; or the
    // colour of the card beneath this one.
    // Where the ink lies as near the table's colour as this (a silver border lit as light as the
    // paper beside it), missing material cannot be told from the border: not examined for it.
    const tellable = toBackground >= MIN_INK_TABLE_DISTANCE;
    const missing = (ground: Rgb, toGround: number) => {
      const dGround = rgbDistance(r - ground[0], g - ground[1], b - ground[2]);
      return (
        toGround >= MIN_INK_TABLE_DISTANCE &&
        dGround < dBorder &&
        dBorder > toGround * 0.5 &&
        dGround < Math.max(MISSING_MAX_DISTANCE, toGround * 0.5)
      );
    };
    if (
      missing(background, toBackground) ||
      (beneath !== null && missing(beneath, rgbDistance(ink[0] - beneath[0], ink[1] - beneath[1], ink[2] - beneath[2])))
    )
      return 2;
    if (whiteningMeasurable) {
      const chroma = Math.max(r, g, b) - Math.min(r, g, b);
      const whitened =
        luma(r, g, b) > borderLuma + WHITENING_LUMA_STEP &&
        chroma < WHITENING_MAX_CHROMA &&
        dBorder > WHITENING_MIN_DISTANCE;
      if (whitened) return 3;
    }
    // Neither the table, nor whitening, nor the border's ink in some light: something lies over
    // the border there (a finger holding the card, print in the border), and it is not examined.
    here[0] = r;
    here[1] = g;
    here[2] = b;
    return tellable && sameInk(here, ink) ? 1 : 0;
  };
  const inkNear = frame.rim ? rimInk(flat, frame, border, background) : localBorderInk(flat, frame, border, background);
  // Each examined pixel's lift above its ink's brightness (lightNotWear).
  const lift = new Float32Array(W * H);
  const mark = (x: number, y: number, ink: BorderInk) => {
    if (!inBorder(x, y)) return;
    const p = (y * W + x) * 4;
    lift[y * W + x] = luma(data[p] ?? 0, data[p + 1] ?? 0, data[p + 2] ?? 0) - ink.borderLuma;
    const seen = classify(x, y, ink);
    // Wear is read only where the cut beside it is seen against the table.
    state[y * W + x] = seen >= 2 && !tableBeside(x, y) ? 0 : seen;
  };

  const cornerBoxes = [
    { x0: 0, y0: 0, name: "top_left_corner" },
    { x0: W - CORNER_PATCH_PX, y0: 0, name: "top_right_corner" },
    { x0: W - CORNER_PATCH_PX, y0: H - CORNER_PATCH_PX, name: "bottom_right_corner" },
    { x0: 0, y0: H - CORNER_PATCH_PX, name: "bottom_left_corner" },
  ];
  // A corner's pixels are judged against the ink of the side they lie nearer, where it leaves the corner.
  for (const corner of cornerBoxes) {
    for (let y = corner.y0; y < corner.y0 + CORNER_PATCH_PX; y++) {
      for (let x = corner.x0; x < corner.x0 + CORNER_PATCH_PX; x++) {
        if (!insideRoundedCard(x + 0.5, y + 0.5, W, H, BAND_FROM_PX)) continue;
        const fromSide = Math.min(x, W - 1 - x);
        const fromEnd = Math.min(y, H - 1 - y);
        // How deep the pixel lies inside the ideal rounded cut (a rim's shading follows it).
        const depth = depthInsideCut(x, y, W, H);
        const ink =
          fromSide <= fromEnd
            ? inkNear(x < W / 2 ? "left" : "right", y, depth)
            : inkNear(y < H / 2 ? "top" : "bottom", x, depth);
        mark(x, y, ink);
      }
    }
  }
  // Edge bands between the corner patches, no deeper than the border itself.
  const depth = (limit: number) => Math.min(BAND_TO_PX, Math.max(BAND_FROM_PX + 1, Math.floor(limit) - 1));
  for (let y = CORNER_PATCH_PX; y < H - CORNER_PATCH_PX; y++) {
    for (let d = BAND_FROM_PX; d < depth(frame.left); d++) mark(d, y, inkNear("left", y, d + 0.5));
    for (let d = BAND_FROM_PX; d < depth(frame.right); d++) mark(W - 1 - d, y, inkNear("right", y, d + 0.5));
  }
  for (let x = CORNER_PATCH_PX; x < W - CORNER_PATCH_PX; x++) {
    for (let d = BAND_FROM_PX; d < depth(frame.top); d++) mark(x, d, inkNear("top", x, d + 0.5));
    for (let d = BAND_FROM_PX; d < depth(frame.bottom); d++) mark(x, H - 1 - d, inkNear("bottom", x, d + 0.5));
  }
  lightNotWear(state, lift, W, H);
  missingOpenToCut(state, W, H);
  for (const corner of cornerBoxes) slivers(state, W, H, corner.x0, corner.y0);
  // A worn pixel counts when two of its four neighbours are worn too (JPEG and sensor noise flip
  // single pixels; real wear is a patch).
  const isWorn = (x: number, y: number) => {
    const s = state[y * W + x] ?? 0;
    if (s < 2) return false;
    let neighbours = 0;
    if (x > 0 && (state[y * W + x - 1] ?? 0) >= 2) neighbours++;
    if (x < W - 1 && (state[y * W + x + 1] ?? 0) >= 2) neighbours++;
    if (y > 0 && (state[(y - 1) * W + x] ?? 0) >= 2) neighbours++;
    if (y < H - 1 && (state[(y + 1) * W + x] ?? 0) >= 2) neighbours++;
    return neighbours >= 2;
  };

  // Corners: worn area per corner, a defect box around each worn corner.
  const pxArea = 1 / (MM * MM);
  const cornerDefects: DefectRegion[] = [];
  let cornerExamined = 0;
  let worstCornerMm2 = 0;
  for (const corner of cornerBoxes) {
    let whitened = 0;
    let missing = 0;
    let minX = W;
    let minY = H;
    let maxX = -1;
    let maxY = -1;
    for (let y = corner.y0; y < corner.y0 + CORNER_PATCH_PX; y++) {
      for (let x = corner.x0; x < corner.x0 + CORNER_PATCH_PX; x++) {
        const s = state[y * W + x] ?? 0;
        if (s === 0) continue;
        cornerExamined++;
        if (!isWorn(x, y)) continue;
        if (s === 2) missing++;
        else whitened++;
        minX = Math.min(minX, x);
        minY = Math.min(minY, y);
        maxX = Math.max(maxX, x);
        maxY = Math.max(maxY, y);
      }
    }
    const areaMm2 = (whitened + missing) * pxArea;
    worstCornerMm2 = Math.max(worstCornerMm2, areaMm2);
    if (areaMm2 > MIN_CORNER_DEFECT_MM2) {
      cornerDefects.push({
        type: missing > whitened ? "missing_material" : "whitening",
        face,
        location: corner.name,
        box_mm: boxMm(minX, minY, maxX + 1, maxY + 1),
        area_mm2: round2(areaMm2),
        length_mm: null,
      });
    }
  }

  // Edges: positions along each edge whose band is worn; runs of them are chips.
  const edgeDefects: DefectRegion[] = [];
  let edgeExamined = 0;
  let edgeWornPositions = 0;
  const edges = [
    { name: "left_edge", along: H, at: (t: number, d: number) => [d, t] as const, limit: depth(frame.left) },
    { name: "right_edge", along: H, at: (t: number, d: number) => [W - 1 - d, t] as const, limit: depth(frame.right) },
    { name: "top_edge", along: W, at: (t: number, d: number) => [t, d] as const, limit: depth(frame.top) },
    {
      name: "bottom_edge",
      along: W,
      at: (t: number, d: number) => [t, H - 1 - d] as const,
      limit: depth(frame.bottom),
    },
  ];
  for (const edge of edges) {
    let runStart = -1;
    let runDepth = 0;
    let runPixels = 0;
    const close = (end: number) => {
      if (runStart < 0) return;
      const [ax, ay] = edge.at(runStart, 0);
      const [bx, by] = edge.at(end - 1, runDepth);
      edgeDefects.push({
        type: "chip",
        face,
        location: edge.name,
        box_mm: boxMm(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx) + 1, Math.max(ay, by) + 1),
        area_mm2: round2(runPixels * pxArea),
        length_mm: round2((end - runStart) / MM),
      });
      runStart = -1;
      runDepth = 0;
      runPixels = 0;
    };
    for (let t = CORNER_PATCH_PX; t < edge.along - CORNER_PATCH_PX; t++) {
      let worn = 0;
      let deepest = 0;
      for (let d = BAND_FROM_PX; d < edge.limit; d++) {
        const [x, y] = edge.at(t, d);
        if ((state[y * W + x] ?? 0) === 0) continue;
        edgeExamined++;
        if (isWorn(x, y)) {
          worn++;
          deepest = d;
        }
      }
      if (worn >= EDGE_WORN_MIN_PIXELS) {
        edgeWornPositions++;
        if (runStart < 0) runStart = t;
        runDepth = Math.max(runDepth, deepest);
        runPixels += worn;
      } else close(t);
    }
    close(edge.along - CORNER_PATCH_PX);
  }

  const surface = measureSurface(face, flat, frame);
  const regionOf = (count: number) => count * pxArea;
  const cornerRegion = 4 * (CORNER_PATCH_PX * CORNER_PATCH_PX - (4 - Math.PI) * CORNER_RADIUS_PX ** 2 * 0.25);
  const edgeRegion = 2 * (H + W - 4 * CORNER_PATCH_PX) * (BAND_TO_PX - BAND_FROM_PX);
  return {
    worstCornerMm2,
    edgeWornMm: edgeWornPositions / MM,
    surfaceLineMm: surface.lineMm,
    artLines: surface.artLines,
    whiteningMeasurable,
    corners: { examinedMm2: regionOf(cornerExamined), regionMm2: regionOf(cornerRegion), defects: cornerDefects },
    edges: { examinedMm2: regionOf(edgeExamined), regionMm2: regionOf(edgeRegion), defects: edgeDefects },
    surface: { examinedMm2: surface.examinedMm2, regionMm2: surface.regionMm2, defects: surface.defects },
  };
}

/** A border colour a pixel is judged against, with what classify asks of it worked out once. */
interface BorderInk {
  ink: Rgb;
  borderLuma: number;
  toBackground: number;
}

const borderInk = (ink: Rgb, background: Rgb): BorderInk => ({
  ink,
  borderLuma: luma(...ink),
  toBackground: Math.hypot(ink[0] - background[0], ink[1] - background[1], ink[2] - background[2]),
});

/** The index of the flat card's pixel `d` in from the cut on `side`, at `t` along it (its row for left and right, its column for top and bottom). */
function sidePixel(side: Side, d: number, t: number, W: number, H: number): number {
  const x = side === "left" ? d : side === "right" ? W - 1 - d : t;
  const y = side === "top" ? d : side === "bottom" ? H - 1 - d : t;
  return y * W + x;
}

/** Which of a side's places read every LOCAL_STEP_PX (clear of the corners) lies nearest `t` along it. */
function nearestPlace(side: Side, t: number, W: number, H: number): number {
  const along = side === "left" || side === "right" ? H : W;
  return Math.round(Math.min(along - CORNER_PATCH_PX - 1, Math.max(CORNER_PATCH_PX, t)) / LOCAL_STEP_PX);
}

/**
 * The border's ink near a place along a side (`t`: the flat card's row for left and right, its
 * column for top and bottom), read on the side's inner strip (LOCAL_BORDER_PX); where the strip
 * is too thin to read (print in the border, a border under 2 mm), on the examined band itself
 * (BAND_INK_PX); `border`, the face's one colour, where neither is a shade of it.
 */
function localBorderInk(
  flat: RgbaImage,
  frame: FrameWidths,
  border: Rgb,
  background: Rgb,
): (side: Side, t: number, depth: number) => BorderInk {
  const { width: W, height: H } = flat;
  const inkOf = (ink: Rgb) => borderInk(ink, background);
  const whole = inkOf(border);
  const tableLuma = luma(...background);
  const samples = {} as Record<Side, (BorderInk | null)[]>;
  for (const side of SIDES) {
    const printFrom = frame.printFrom?.[side];
    const inside = Math.min(frame[side], printFrom ?? Number.POSITIVE_INFINITY);
    const limit = Math.min(Math.floor(inside) - INNER_MARGIN_PX, BAND_TO_PX + MAX_INNER_DEPTH_PX);
    samples[side] =
      limit - BAND_TO_PX >= MIN_INNER_DEPTH_PX
        ? inkAlong(flat, side, BAND_TO_PX, limit, LOCAL_BORDER_PX, border, tableLuma, inkOf)
        : inkAlong(
            flat,
            side,
            BAND_FROM_PX,
            Math.min(BAND_TO_PX, Math.floor(inside) - FRAME_MARGIN_PX),
            BAND_INK_PX,
            border,
            tableLuma,
            inkOf,
          );
  }
  return (side, t) => samples[side][nearestPlace(side, t, W, H)] ?? whole;
}

/**
 * A side's ink every LOCAL_STEP_PX along it: at each place the median across depths `from`–`to`,
 * then the median of those within `reach` along the side; null where that is no shade of `border`
 * (nor that ink under a sheen: a black border catching a lamp, image.ts, sameInkOrSheen; a coloured
 * one paled by it, MIN_VEILED_HUE_SHARE).
 */
function inkAlong(
  flat: RgbaImage,
  side: Side,
  from: number,
  to: number,
  reach: number,
  border: Rgb,
  tableLuma: number,
  inkOf: (ink: Rgb) => BorderInk,
): (BorderInk | null)[] {
  const { width: W, height: H, data } = flat;
  const along = side === "left" || side === "right" ? H : W;
  const row: (BorderInk | null)[] = [];
  const across = to - from;
  if (across < MIN_INNER_DEPTH_PX) return row;
  const depthValues = new Float64Array(across);
  const placeInk = [new Float64Array(along), new Float64Array(along), new Float64Array(along)] as const;
  for (let t = CORNER_PATCH_PX; t < along - CORNER_PATCH_PX; t++) {
    for (let ch = 0; ch < 3; ch++) {
      for (let d = from; d < to; d++) depthValues[d - from] = data[sidePixel(side, d, t, W, H) * 4 + ch] ?? 0;
      (placeInk[ch] as Float64Array)[t] = selectKth(depthValues, across, across >> 1);
    }
  }
  const window = new Float64Array(2 * reach + 1);
  for (let c = 0; c < along; c += LOCAL_STEP_PX) {
    const start = Math.max(CORNER_PATCH_PX, c - reach);
    const end = Math.min(along - CORNER_PATCH_PX, c + reach + 1);
    const n = end - start;
    if (n * across < MIN_LOCAL_PIXELS) {
      row.push(null);
      continue;
    }
    const ink = placeInk.map((values) => {
      window.set(values.subarray(start, end));
      return selectKth(window, n, n >> 1);
    }) as Rgb;
    // Only the side's ink in another light: not a thumb over the border, nor whitening all along it.
    row.push(
      sameInkOrSheen(ink, border, tableLuma) ||
        sameInkUnderSheen(ink, border, MIN_VEILED_HUE_SHARE) ||
        inkInOtherLight(ink, border)
        ? inkOf(ink)
        : null,
    );
  }
  return row;
}

/**
 * A hued ink in more light, or less, than sameInk allows (image.ts, MIN_SHADE_RATIO): `ink` up to
 * MAX_LIGHT_RATIO times as bright as `border`, or as dark, its chromaticity within
 * MAX_LIT_CHROMA_DIFFERENCE of it, `border` at least MIN_INK_CHROMA from neutral: paper-white
 * whitening, near neutral, then lies further than that from the ink's chromaticity, and is not
 * taken for the ink in more light even where it reaches the inner strip (a neutral ink's grey
 * light is sameInkOrSheen's). On a real photo of a gold Magic card on a desk, its warm black
 * border, rgb(43, 36, 23), reads rgb(120, 104, 78) toward its bottom right corner, lit 2.9 times
 * (about 8 times in linear light), its chromaticity 0.02 off; judged against the side's darker
 * ink, the lit border passed for whitening (15 levels lighter, chroma under 45, 60 from the ink):
 * corners and edges 5 on a card that shows no wear. In less light: on a real photo of a
 * silver-bordered Pokémon card on dark cloth, its left border, rgb(130, 107, 96) along most of
 * the side, reads about rgb(42, 33, 26) toward its bottom left corner in the card's own shade
 * (0.32 of the luma, its chromaticity 0.02 off); judged against the whole border's ink, that
 * corner, near the cloth's colour, read as 3.5 mm² of missing material and the side beside it as
 * chips: corners 6 and edges 8.5 on a card that shows no wear.
 */
function inkInOtherLight(ink: Rgb, border: Rgb): boolean {
  const lit = luma(...ink);
  const base = luma(...border);
  if (lit > MAX_LIGHT_RATIO * base || lit * MAX_LIGHT_RATIO < base) return false;
  return (
    chromaticityDistance(border, NEUTRAL) >= MIN_INK_CHROMA &&
    chromaticityDistance(ink, border) <= MAX_LIT_CHROMA_DIFFERENCE
  );
}
const NEUTRAL: Rgb = [1, 1, 1];
const MAX_LIGHT_RATIO = 4;
const MAX_LIT_CHROMA_DIFFERENCE = 0.04;
const MIN_INK_CHROMA = 0.05;

/**
 * A bevelled rim's colour at each depth (flat-card pixels from the cut) near a place along a side:
 * the median over the side's places within LOCAL_BORDER_PX of it, at that depth (the pixel's own
 * row of depths across the rim), from the cut to FRAME_MARGIN_PX short of the frame. Judged
 * against one colour, the rim's lighter outer half (grey beside its near-black inner edge) reads
 * as whitening all along the cut: edges 1–2 and corners 7–8 on pristine drawn cards. `border`
 * (the rim's darkest) is used where a depth is not read.
 */
function rimInk(
  flat: RgbaImage,
  frame: FrameWidths,
  border: Rgb,
  background: Rgb,
): (side: Side, t: number, depth: number) => BorderInk {
  const { width: W, height: H, data } = flat;
  const inkOf = (ink: Rgb) => borderInk(ink, background);
  const whole = inkOf(border);
  // samples[side][depth][place / LOCAL_STEP_PX]
  const samples = {} as Record<Side, BorderInk[][]>;
  for (const side of SIDES) {
    const along = side === "left" || side === "right" ? H : W;
    const depths = Math.max(0, Math.floor(frame[side]) - FRAME_MARGIN_PX);
    const values = new Float64Array(along);
    const window = new Float64Array(2 * LOCAL_BORDER_PX + 1);
    const rows: BorderInk[][] = [];
    for (let d = 0; d < depths; d++) {
      const channels = [0, 1, 2].map((ch) => {
        for (let t = CORNER_PATCH_PX; t < along - CORNER_PATCH_PX; t++) {
          values[t] = data[sidePixel(side, d, t, W, H) * 4 + ch] ?? 0;
        }
        const local: number[] = [];
        for (let c = 0; c < along; c += LOCAL_STEP_PX) {
          const from = Math.max(CORNER_PATCH_PX, c - LOCAL_BORDER_PX);
          const to = Math.min(along - CORNER_PATCH_PX, c + LOCAL_BORDER_PX + 1);
          window.set(values.subarray(from, to));
          local.push(selectKth(window, to - from, (to - from) >> 1));
        }
        return local;
      });
      rows.push(
        (channels[0] ?? []).map((_, i) => inkOf([channels[0]?.[i] ?? 0, channels[1]?.[i] ?? 0, channels[2]?.[i] ?? 0])),
      );
    }
    samples[side] = rows;
  }
  return (side, t, depth) => {
    const rows = samples[side];
    const row = rows[Math.min(rows.length - 1, Math.max(0, Math.floor(depth)))];
    return row?.[nearestPlace(side, t, W, H)] ?? whole;
  };
}

/**
 * Sets to "not examined" (0) every patch of worn pixels (`state` 2 or 3, 4-connected) of at least
 * MIN_LIGHT_PATCH whose sound pixels (`state` 1) LIGHT_RING_PX away (Chebyshev) are lifted above
 * their ink (`lift`) by more than LIGHT_RING_SHARE of the patch's median lift: light falling off
 * round it, not wear (see LIGHT_RING_SHARE).
 */
function lightNotWear(state: Uint8Array, lift: Float32Array, W: number, H: number): void {
  const [near, far] = LIGHT_RING_PX;
  wornPatches(state, W, { x0: 0, y0: 0, x1: W, y1: H }, (patch, { x0, y0, x1, y1 }, isIn) => {
    if (patch.length < MIN_LIGHT_PATCH) return;
    // The sound pixels whose nearest pixel of the patch lies `near`–`far` px away (Chebyshev).
    const ring: number[] = [];
    for (let y = Math.max(0, y0 - far); y <= Math.min(H - 1, y1 + far); y++) {
      for (let x = Math.max(0, x0 - far); x <= Math.min(W - 1, x1 + far); x++) {
        if (state[y * W + x] !== 1) continue;
        let nearest = far + 1;
        for (let dy = -far; dy <= far && nearest >= near; dy++) {
          for (let dx = -far; dx <= far; dx++) {
            if (isIn(x + dx, y + dy)) nearest = Math.min(nearest, Math.max(Math.abs(dx), Math.abs(dy)));
          }
        }
        if (nearest >= near && nearest <= far) ring.push(lift[y * W + x] ?? 0);
      }
    }
    if (ring.length < MIN_LIGHT_RING) return;
    const patchLift = median(patch.map((i) => lift[i] ?? 0));
    if (patchLift > 0 && median(ring) > LIGHT_RING_SHARE * patchLift) for (const i of patch) state[i] = 0;
  });
}

/** A box of the flat card, [x0, x1) × [y0, y1) in its pixels (inclusive x1, y1 for a patch's bounds). */
interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Each 4-connected patch of worn pixels (`state` 2 or 3) inside `box` ([x0, x1) × [y0, y1)):
 * `visit` gets its pixels (flat-card indices), their bounds (inclusive) and whether a pixel (x, y)
 * belongs to it. The labels are built at the first worn pixel: most faces have none.
 */
function wornPatches(
  state: Uint8Array,
  W: number,
  box: PixelBox,
  visit: (patch: number[], bounds: PixelBox, isIn: (x: number, y: number) => boolean) => void,
): void {
  const boxW = box.x1 - box.x0;
  const inBox = (x: number, y: number) => x >= box.x0 && x < box.x1 && y >= box.y0 && y < box.y1;
  const at = (x: number, y: number) => (y - box.y0) * boxW + (x - box.x0);
  let label: Int32Array | undefined;
  let next = 0;
  const stack: number[] = [];
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      if ((state[y * W + x] ?? 0) < 2) continue;
      label ??= new Int32Array(boxW * (box.y1 - box.y0));
      if (label[at(x, y)] !== 0) continue;
      const id = ++next;
      const patch: number[] = [];
      const bounds = { x0: x, y0: y, x1: x, y1: y };
      label[at(x, y)] = id;
      stack.push(x, y);
      while (stack.length > 0) {
        const py = stack.pop() as number;
        const px = stack.pop() as number;
        patch.push(py * W + px);
        bounds.x0 = Math.min(bounds.x0, px);
        bounds.y0 = Math.min(bounds.y0, py);
        bounds.x1 = Math.max(bounds.x1, px);
        bounds.y1 = Math.max(bounds.y1, py);
        for (const [nx, ny] of [
          [px - 1, py],
          [px + 1, py],
          [px, py - 1],
          [px, py + 1],
        ] as const) {
          if (!inBox(nx, ny) || label[at(nx, ny)] !== 0 || (state[ny * W + nx] ?? 0) < 2) continue;
          label[at(nx, ny)] = id;
          stack.push(nx, ny);
        }
      }
      const labels = label;
      visit(patch, bounds, (qx, qy) => inBox(qx, qy) && labels[at(qx, qy)] === id);
    }
  }
}

/** A box in flat-card pixels [x0, x1) × [y0, y1) as millimetres from the card's top-left corner. */
export function boxMm(x0: number, y0: number, x1: number, y1: number): DefectRegion["box_mm"] {
  return {
    x: round2(x0 / MM),
    y: round2(y0 / MM),
    width: round2((x1 - x0) / MM),
    height: round2((y1 - y0) / MM),
  };
}

/**
 * Missing material is a bite out of the edge: a patch of the table's colour counts only where it
 * reaches the outermost pixels examined (within OPEN_RING_PX of BAND_FROM_PX inside the ideal
 * rounded cut), through pixels of the table's colour. One lying further in, border between it
 * and the cut, is the border's ink in a light as pale as the table, or print: not examined (on a
 * real photo a silver border's lighter stripe 0.6–0.9 mm in read as a 1.5 mm chip).
 */
function missingOpenToCut(state: Uint8Array, W: number, H: number): void {
  // Built at the first pixel of missing material: most faces have none.
  let reached: Uint8Array | undefined;
  const stack: number[] = [];
  for (let i = 0; i < W * H; i++) {
    if (state[i] !== 2) continue;
    reached ??= new Uint8Array(W * H);
    const x = i % W;
    const y = (i - x) / W;
    if (!insideRoundedCard(x + 0.5, y + 0.5, W, H, BAND_FROM_PX + OPEN_RING_PX)) {
      reached[i] = 1;
      stack.push(i);
    }
  }
  if (!reached) return;
  while (stack.length > 0) {
    const i = stack.pop() as number;
    const x = i % W;
    for (const j of [x > 0 ? i - 1 : -1, x < W - 1 ? i + 1 : -1, i - W, i + W]) {
      if (j < 0 || j >= W * H || reached[j] || state[j] !== 2) continue;
      reached[j] = 1;
      stack.push(j);
    }
  }
  for (let i = 0; i < W * H; i++) if (state[i] === 2 && !reached[i]) state[i] = 0;
}

/**
 * Worn pixels at a corner count only in a patch reaching SLIVER_RINGS or more past the outermost
 * pixels examined (BAND_FROM_PX inside the ideal 3 mm rounded cut). A patch lying wholly in those
 * outer rings, a sliver along the cut's rounding, cannot be told from the outline's own error where
 * two fitted sides meet (a lens's bend, a corner die-cut rounder than 3 mm): on the real photos
 * the sides' lines meet a pixel or two outside the card's rounding, and its blend with the table
 * read as 0.2–0.8 mm² of missing material or whitening (corners 9.5–8.5) on cards whose corners are
 * sound on the photo. Along the edges a position counts only with EDGE_WORN_MIN_PIXELS worn across
 * its band, which sets such slivers aside there. Whitening of a corner or a ding reaches deeper.
 */
const SLIVER_RINGS = 2;

/** Sets to "not examined" each patch of worn pixels in a corner box lying wholly within SLIVER_RINGS of the examined band's outer edge. */
function slivers(state: Uint8Array, W: number, H: number, x0: number, y0: number): void {
  const box = { x0, y0, x1: x0 + CORNER_PATCH_PX, y1: y0 + CORNER_PATCH_PX };
  wornPatches(state, W, box, (patch) => {
    const deepest = Math.max(...patch.map((i) => depthInsideCut(i % W, Math.floor(i / W), W, H)));
    if (deepest < BAND_FROM_PX + SLIVER_RINGS) for (const i of patch) state[i] = 0;
  });
}

/** How deep (px) the centre of the flat card's pixel (x, y) lies inside the ideal 3 mm rounded cut. */
function depthInsideCut(x: number, y: number, W: number, H: number): number {
  const cx = Math.min(x + 0.5, W - x - 0.5);
  const cy = Math.min(y + 0.5, H - y - 0.5);
  return cx < CORNER_RADIUS_PX && cy < CORNER_RADIUS_PX
    ? CORNER_RADIUS_PX - Math.hypot(CORNER_RADIUS_PX - cx, CORNER_RADIUS_PX - cy)
    : Math.min(cx, cy);
}

/** How far (px) past BAND_FROM_PX a patch of missing material must reach toward the cut. */
const OPEN_RING_PX = 1.5;

function insideRoundedCard(x: number, y: number, W: number, H: number, inset: number): boolean {
  const r = CORNER_RADIUS_PX;
  const qx = Math.abs(x - W / 2) - (W / 2 - r);
  const qy = Math.abs(y - H / 2) - (H / 2 - r);
  const distance = Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
  return distance <= -inset;
}
