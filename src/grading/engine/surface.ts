// Surface wear on a flat face: line-like defects (scratches, creases) where the print around them
// is calm enough for them to stand out. A photograph as artwork is full of edges and texture; a
// scratch or a crease is a thin, straight ridge (lighter or darker than both of its sides) that
// runs on across printed structure and into the border. So:
// - a line that stays inside the front's artwork cannot be told from a line printed there (rays,
//   a tent's rim, hatching) by looking at the photo alone: it is not damage on its own. It is kept
//   as an art line, and counted only when the catalog's reference image of the identified card,
//   aligned on the printed frame, shows no such line there (reference-difference.ts). A line that
//   runs on out of the artwork into the border is a scratch or a crease without a reference. A
//   back is the maker's standard design (a ball, an oval, a table of figures), without straight
//   lines off the card's axes, and the catalog holds no image of it: its lines count as before;
// - every pixel's ridge strength is how much it stands above both neighbours 0.25 mm away on
//   either side, in the strongest of four directions: a scratch, and a crease's ridge, catch the
//   light and read lighter than the print around them, while a photograph's own thin lines are as
//   often dark (only light ridges count);
// - each 2 × 2 mm block's own ridge level (1.4826 × median) sets its threshold (RIDGE_K times it,
//   at least RIDGE_MIN levels); a block whose threshold exceeds RIDGE_EXAMINABLE is too busy to
//   tell a scratch from the picture and is not examined (not damage);
// - ridge pixels over the threshold are joined (8-connected); a group is a defect when it is a
//   straight line at least MIN_LINE_MM long in the border or MIN_ART_LINE_MM inside the art (a
//   photograph has short straight highlights), at most MAX_LINE_WIDTH_PX wide (second moments),
//   and not parallel to the card's edges (printed rules and frame lines are; scratches rarely);
// - a line that runs along an edge of the picture is the picture's own highlight (a cup's rim,
//   a blade's edge), not a scratch: when the print 0.75 mm to one side of it is consistently
//   lighter, or consistently darker, than 0.75 mm to the other side (EDGE_SIDE_DIFFERENCE levels
//   or more, with one sign along EDGE_SIDE_AGREEMENT of its length), it is not counted. A scratch
//   lies across the picture's structure: what is beside it changes along its length. Where a
//   line FRAME_CROSSING_DEG or more off the card's axes crosses the frame line, one side in the
//   art and the other in the border, the sides are not compared there: the frame's edge beside a
//   scratch running into the border at a slant is not a picture's edge it follows (a drawn one,
//   5 mm long at 34°, was set aside as one). A line nearer the axes lying across the frame line
//   runs along it: the frame's own edge;
// - and a scratch or a crease is straight: a line that bends away from its chord by more than
//   MAX_SAGITTA_MM (a parabola fitted across its length) is a highlight on something round in the
//   picture, a saucer's or a cup's rim, whatever lies beside it;
// - a real fold is none of that (jagged, broken, often parallel to a side): folds across the card
//   from border to border are found first from the same ridge pixels (folds.ts), and the pieces of
//   one are not counted again. Across white or light ink a fold's light ridge cannot stand out
//   above the print, while its shaded side does, darker than both neighbours: folds are looked for
//   again on the light ridges and those dark valleys together, held to a stricter bar (VALLEY_FOLD).
import type { DefectRegion, FaceName } from "./evidence";
import { type FoldBar, findFolds } from "./folds";
import { FLAT_PX_PER_MM, fitParabola, type Point, selectKth } from "./geometry";
import type { RgbaImage } from "./image";

const MM = FLAT_PX_PER_MM;
/** The surface is judged from this far inside the card's edge (the edge band is the edges' own). */
const SURFACE_INSET_PX = Math.round(1.2 * MM);
const OFFSET_PX = 2; // 0.25 mm either side of a ridge
const BLOCK_PX = 2 * MM;
export const RIDGE_MIN = 18;
export const RIDGE_K = 5;
export const RIDGE_EXAMINABLE = 40;
/** Shortest line defect: in the border (flat ink) and in the art. */
export const MIN_LINE_MM = 2;
export const MIN_ART_LINE_MM = 8;
const MAX_LINE_WIDTH_PX = 1.1; // standard deviation across the line (≈ 3.5 px wide)
/** A line within this many degrees of the card's edges is printed structure, not a defect. */
export const AXIS_PARALLEL_DEG = 3;
const MAX_REPORTED_DEFECTS = 40;
/**
 * A fold read on light ridges and dark valleys together (a crease across white or light ink shows
 * its shaded side) must cover this share of its examined steps and run this long: pieces of dark
 * print (a card number, an illustrator's credit) line up across a corner more often than light
 * ridges do. On a real Pokémon card's lower corner such a line covered 0.63–0.70 over 20–24.5 mm;
 * drawn creases across the card, 0.72–0.99 over 78–94 mm. And its middle must lie inside the
 * frame: read from 0.5 mm inside the cut, a real black border's lit top edge made a line 60 mm
 * long along the top border, from the left border to the right.
 */
const VALLEY_FOLD: FoldBar = { coverage: 0.85, lengthMm: 40, middleInFrame: true };
/**
 * Folds on ridges and valleys are read from this far inside the cut (px), not from the edge band's
 * SURFACE_INSET_PX: across a border under about 1.6 mm the strip left between the edge band and
 * the frame is narrower than the BORDER_DEPTH_PX a fold's end must reach past the frame line.
 */
const VALLEY_FOLD_INSET_PX = Math.round(0.5 * MM);
/** A line whose middle lies within this many px of a fold is a piece of it (folds.ts), not another defect. */
const FOLD_PIECE_PX = 2 * MM;
/** A line whose two sides differ by this many grey levels (median) follows an edge of the picture… */
export const EDGE_SIDE_DIFFERENCE = 6;
/** …when one side is the lighter along this share of its length. */
export const EDGE_SIDE_AGREEMENT = 0.78;
const SIDE_OFFSET_PX = 6; // 0.75 mm
/**
 * A line at least this far off the card's axes crosses the frame lines rather than running along
 * one (a piece of the frame's own edge, 5° off the axis, lay across the left frame line of a
 * real photo, its sides art and border).
 */
const FRAME_CROSSING_DEG = 20;
/**
 * A line defect may bend at most this far from its chord. Drawn scratches and creases bend
 * 0–0.05 mm; the rim highlights of a cup and a saucer that were read as scratches on pristine
 * drawn cards, 8–9 mm long, bend 0.21–0.29 mm.
 */
export const MAX_SAGITTA_MM = 0.1;

export interface SurfaceWear {
  /** Total length of line defects, mm. */
  lineMm: number;
  examinedMm2: number;
  regionMm2: number;
  defects: DefectRegion[];
  /** Front only: lines that pass every test of a defect but lie wholly inside the artwork, damage only if the reference lacks them. */
  artLines: ArtLine[];
}

/** A straight light line wholly inside the artwork, in flat-card pixels. */
export interface ArtLine {
  /** Points along the line (at most ART_LINE_POINTS, evenly spread over its pixels). */
  points: { x: number; y: number }[];
  /** Median ridge strength over its pixels (grey levels). */
  ridge: number;
  lengthMm: number;
  box_mm: DefectRegion["box_mm"];
}

const ART_LINE_POINTS = 48;

export function measureSurface(
  face: FaceName,
  flat: RgbaImage,
  frame: { left: number; right: number; top: number; bottom: number },
): SurfaceWear {
  const { width: W, height: H } = flat;
  const x0 = SURFACE_INSET_PX;
  const y0 = SURFACE_INSET_PX;
  const w = W - 2 * SURFACE_INSET_PX;
  const h = H - 2 * SURFACE_INSET_PX;
  const regionMm2 = (w * h) / (MM * MM);
  if (w < 4 * BLOCK_PX || h < 4 * BLOCK_PX) return { lineMm: 0, examinedMm2: 0, regionMm2, defects: [], artLines: [] };
  const gray = grayOf(flat);
  // Ridges and valleys over the fold reading's wider region (VALLEY_FOLD_INSET_PX, below) in one
  // pass; the surface's own region lies inside it.
  const inset = VALLEY_FOLD_INSET_PX;
  const region = { w: W - 2 * inset, h: H - 2 * inset, x0: inset, y0: inset };
  const valley = new Float32Array(region.w * region.h);
  const wideRidge = ridgeStrength(gray, W, inset, inset, region.w, region.h, valley);
  const ridge = new Float32Array(w * h);
  const shift = SURFACE_INSET_PX - inset;
  for (let y = 0; y < h; y++) {
    const from = (y + shift) * region.w + shift;
    ridge.set(wideRidge.subarray(from, from + w), y * w);
  }
  const light = ridgeMask(ridge, w, h);
  const { mask, examined } = light;

  // Folds across the card (folds.ts) first: a crease's pieces are not counted again as lines.
  const folds = findFolds({ mask, examined, w, h, x0, y0 }, frame, W, H);
  // A crease across light print shows its fold's shaded side, a valley darker than both of its
  // neighbours, where its light ridge cannot stand out above the ink: read on the light ridges
  // and the valleys together, held to a stricter bar (VALLEY_FOLD).
  // They are read from VALLEY_FOLD_INSET_PX inside the cut, where a thin border still shows a
  // fold's ends.
  const ridges = ridgeMask(wideRidge, region.w, region.h);
  const valleys = ridgeMask(valley, region.w, region.h);
  const either = new Uint8Array(ridges.mask.length);
  const lightMask = ridges.mask;
  const darkMask = valleys.mask;
  for (let i = 0; i < either.length; i++) either[i] = (lightMask[i] ?? 0) | (darkMask[i] ?? 0);
  const examinedEither = (x: number, y: number) => ridges.examined(x, y) || valleys.examined(x, y);
  for (const fold of findFolds({ mask: either, examined: examinedEither, ...region }, frame, W, H, VALLEY_FOLD)) {
    const middle = { x: (fold.from.x + fold.to.x) / 2, y: (fold.from.y + fold.to.y) / 2 };
    if (!folds.some((other) => segmentDistance(middle, other.from, other.to) <= FOLD_PIECE_PX)) folds.push(fold);
  }
  const defects: DefectRegion[] = folds.slice(0, MAX_REPORTED_DEFECTS).map((fold) => ({
    type: "crease",
    face,
    location: "surface_and_border",
    box_mm: {
      x: round2(fold.box.minX / MM),
      y: round2(fold.box.minY / MM),
      width: round2((fold.box.maxX - fold.box.minX + 1) / MM),
      height: round2((fold.box.maxY - fold.box.minY + 1) / MM),
    },
    area_mm2: round2(fold.lengthMm * 0.2),
    length_mm: round2(fold.lengthMm),
  }));
  const onFold = (x: number, y: number) =>
    folds.some((fold) => segmentDistance({ x, y }, fold.from, fold.to) <= FOLD_PIECE_PX);

  // Connected groups of ridge pixels; straight, thin, long, off-axis ones are defects.
  const artLines: ArtLine[] = [];
  let lineMm = folds.reduce((sum, fold) => sum + fold.lengthMm, 0);
  const stack: number[] = [];
  const pixels: number[] = [];
  const inFrame = (x: number, y: number) =>
    x >= frame.left && x < W - frame.right && y >= frame.top && y < H - frame.bottom;
  for (let start = 0; start < mask.length; start++) {
    if (mask[start] !== 1) continue;
    mask[start] = 2;
    stack.push(start);
    let n = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    let minX = w;
    let minY = h;
    let maxX = 0;
    let maxY = 0;
    let inArt = 0;
    pixels.length = 0;
    while (stack.length > 0) {
      const i = stack.pop() ?? 0;
      const x = i % w;
      const y = (i - x) / w;
      pixels.push(i);
      n++;
      sx += x;
      sy += y;
      sxx += x * x;
      syy += y * y;
      sxy += x * y;
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
      if (inFrame(x + x0, y + y0)) inArt++;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const j = ny * w + nx;
          if (mask[j] === 1) {
            mask[j] = 2;
            stack.push(j);
          }
        }
      }
    }
    if (n < MIN_LINE_MM * MM) continue;
    const mx = sx / n;
    const my = sy / n;
    const cxx = sxx / n - mx * mx;
    const cyy = syy / n - my * my;
    const cxy = sxy / n - mx * my;
    const spread = Math.sqrt(((cxx - cyy) / 2) ** 2 + cxy * cxy);
    const major = (cxx + cyy) / 2 + spread;
    const minor = Math.max(0, (cxx + cyy) / 2 - spread);
    const length = Math.sqrt(12 * major);
    const minLength = (inArt === n ? MIN_ART_LINE_MM : MIN_LINE_MM) * MM;
    if (length < minLength || Math.sqrt(minor) > MAX_LINE_WIDTH_PX) continue;
    const angle = (Math.atan2(2 * cxy, cxx - cyy) / 2) * (180 / Math.PI);
    const fromAxis = Math.min(Math.abs(angle), Math.abs(90 - Math.abs(angle)));
    if (fromAxis < AXIS_PARALLEL_DEG) continue;
    if (sagitta(pixels, w, mx, my, (angle * Math.PI) / 180, length) > MAX_SAGITTA_MM * MM) continue;
    // Crossing the frame line at a slant, the line's sides are not compared across it.
    const crossing = fromAxis >= FRAME_CROSSING_DEG ? inFrame : null;
    if (followsPictureEdge(gray, W, H, x0, y0, w, pixels, (angle * Math.PI) / 180, crossing)) continue;
    if (onFold(mx + x0, my + y0)) continue;
    const lengthMm = length / MM;
    const box = {
      x: round2((minX + x0) / MM),
      y: round2((minY + y0) / MM),
      width: round2((maxX - minX + 1) / MM),
      height: round2((maxY - minY + 1) / MM),
    };
    if (inArt === n && face === "front") {
      if (artLines.length < MAX_REPORTED_DEFECTS) artLines.push(artLine(pixels, w, x0, y0, ridge, lengthMm, box));
      continue;
    }
    lineMm += lengthMm;
    if (defects.length < MAX_REPORTED_DEFECTS) {
      defects.push({
        // A line crossing both art and border is a crease or a long scratch; drawn as one type:
        // a crease when it spans most of the card, a scratch otherwise.
        type: lengthMm > 30 ? "crease" : "scratch",
        face,
        location: inArt === 0 ? "border" : inArt === n ? "surface" : "surface_and_border",
        box_mm: box,
        area_mm2: round2(lengthMm * 0.2),
        length_mm: round2(lengthMm),
      });
    }
  }
  return { lineMm, examinedMm2: light.examinedPx / (MM * MM), regionMm2, defects, artLines };
}

/** Distance (px) from `p` to the segment from `a` to `b`. */
function segmentDistance(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const t = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
}

/** An art line from its pixels (indices in the surface region `w` wide at (x0, y0)). */
function artLine(
  pixels: number[],
  w: number,
  x0: number,
  y0: number,
  ridge: Float32Array,
  lengthMm: number,
  box: DefectRegion["box_mm"],
): ArtLine {
  const strengths = Float32Array.from(pixels, (i) => ridge[i] ?? 0);
  const step = Math.max(1, Math.floor(pixels.length / ART_LINE_POINTS));
  const points: ArtLine["points"] = [];
  for (let k = 0; k < pixels.length && points.length < ART_LINE_POINTS; k += step) {
    const i = pixels[k] ?? 0;
    points.push({ x: (i % w) + x0, y: Math.floor(i / w) + y0 });
  }
  return { points, ridge: selectKth(strengths, strengths.length, strengths.length >> 1), lengthMm, box_mm: box };
}

/**
 * How far (px) the line's pixels (indices in a region `w` wide, centred on (mx, my), running at
 * `angle`, `length` px long) bend from their chord: a parabola across = a·t² + b·t + c fitted by
 * least squares along the line, and a·(length / 2)² its sagitta.
 */
export function sagitta(pixels: number[], w: number, mx: number, my: number, angle: number, length: number): number {
  const ux = Math.cos(angle);
  const uy = Math.sin(angle);
  // t along the line and n across it.
  const ts = new Float64Array(pixels.length);
  const ns = new Float64Array(pixels.length);
  for (const [k, i] of pixels.entries()) {
    const x = (i % w) - mx;
    const y = Math.floor(i / w) - my;
    ts[k] = x * ux + y * uy;
    ns[k] = y * ux - x * uy;
  }
  const parabola = fitParabola(ts, ns);
  return parabola ? Math.abs(parabola.a) * (length / 2) ** 2 : 0;
}

/**
 * Whether the line (its pixels, in the surface region's coordinates, running at `angle`) has one
 * side consistently lighter than the other: the edge of something in the picture. With `inFrame`
 * (for a line crossing the frame line), points whose two sides lie one in the art and one in the
 * border are left out.
 */
function followsPictureEdge(
  gray: Float32Array,
  W: number,
  H: number,
  x0: number,
  y0: number,
  w: number,
  pixels: number[],
  angle: number,
  inFrame: ((x: number, y: number) => boolean) | null,
): boolean {
  // The normal to the line, SIDE_OFFSET_PX long.
  const nx = -Math.sin(angle) * SIDE_OFFSET_PX;
  const ny = Math.cos(angle) * SIDE_OFFSET_PX;
  const differences: number[] = [];
  let lighter = 0;
  for (const i of pixels) {
    const x = (i % w) + x0;
    const y = Math.floor(i / w) + y0;
    const ax = Math.round(x + nx);
    const ay = Math.round(y + ny);
    const bx = Math.round(x - nx);
    const by = Math.round(y - ny);
    if (ax < 0 || ay < 0 || bx < 0 || by < 0 || ax >= W || bx >= W || ay >= H || by >= H) continue;
    // Where a line crossing the frame line has one side in the art and the other in the border,
    // what differs is the printed frame's edge beside it, not a picture's edge along it.
    if (inFrame && inFrame(ax, ay) !== inFrame(bx, by)) continue;
    const difference = (gray[ay * W + ax] ?? 0) - (gray[by * W + bx] ?? 0);
    differences.push(Math.abs(difference));
    if (difference > 0) lighter++;
  }
  if (differences.length === 0) return false;
  differences.sort((a, b) => a - b);
  const median = differences[differences.length >> 1] ?? 0;
  const agreement = Math.max(lighter, differences.length - lighter) / differences.length;
  return median >= EDGE_SIDE_DIFFERENCE && agreement >= EDGE_SIDE_AGREEMENT;
}

/**
 * The ridge pixels over their block's threshold: each BLOCK_PX block's own ridge level (1.4826 ×
 * median) times RIDGE_K, at least RIDGE_MIN; a block whose threshold passes RIDGE_EXAMINABLE is
 * too busy to tell a line from the picture, and is not examined.
 */
function ridgeMask(
  ridge: Float32Array,
  w: number,
  h: number,
): { mask: Uint8Array; examined: (x: number, y: number) => boolean; examinedPx: number } {
  const bw = Math.ceil(w / BLOCK_PX);
  const bh = Math.ceil(h / BLOCK_PX);
  const threshold = new Float32Array(bw * bh);
  const mask = new Uint8Array(w * h);
  let examinedPx = 0;
  // One block's ridge values above 0; their median is selected in place (as a sort would find it,
  // in linear time). Ridge strength is never negative and 0 wherever a pixel stands above neither
  // neighbour, on most of a flat block: with more than half the block 0, so is its median.
  const block = new Float32Array(BLOCK_PX * BLOCK_PX);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let positive = 0;
      const yEnd = Math.min(h, (by + 1) * BLOCK_PX);
      const xEnd = Math.min(w, (bx + 1) * BLOCK_PX);
      for (let y = by * BLOCK_PX; y < yEnd; y++) {
        for (let x = bx * BLOCK_PX, i = y * w + x; x < xEnd; x++, i++) {
          const value = ridge[i] ?? 0;
          if (value > 0) block[positive++] = value;
        }
      }
      const count = (yEnd - by * BLOCK_PX) * (xEnd - bx * BLOCK_PX);
      const zeros = count - positive;
      const middle = count >> 1;
      const level = 1.4826 * (middle < zeros ? 0 : selectKth(block, positive, middle - zeros));
      const t = Math.max(RIDGE_MIN, RIDGE_K * level);
      threshold[by * bw + bx] = t;
      if (t > RIDGE_EXAMINABLE) continue;
      examinedPx += count;
      for (let y = by * BLOCK_PX; y < yEnd; y++)
        for (let x = bx * BLOCK_PX; x < xEnd; x++) if ((ridge[y * w + x] ?? 0) > t) mask[y * w + x] = 1;
    }
  }
  const thresholdAt = (x: number, y: number) =>
    threshold[Math.floor(y / BLOCK_PX) * bw + Math.floor(x / BLOCK_PX)] ?? Number.POSITIVE_INFINITY;
  return { mask, examined: (x, y) => thresholdAt(x, y) <= RIDGE_EXAMINABLE, examinedPx };
}

/** The flat card's grey levels (BT.601 luma). */
function grayOf(flat: RgbaImage): Float32Array {
  const { data } = flat;
  const gray = new Float32Array(flat.width * flat.height);
  for (let i = 0, p = 0; i < gray.length; i++, p += 4) {
    gray[i] = 0.299 * (data[p] ?? 0) + 0.587 * (data[p + 1] ?? 0) + 0.114 * (data[p + 2] ?? 0);
  }
  return gray;
}

/** Ridge strength over the surface region of a flat card: the map art lines are looked up in. */
export function surfaceRidges(flat: RgbaImage): { ridge: Float32Array; x0: number; y0: number; w: number; h: number } {
  const x0 = SURFACE_INSET_PX;
  const y0 = SURFACE_INSET_PX;
  const w = Math.max(0, flat.width - 2 * SURFACE_INSET_PX);
  const h = Math.max(0, flat.height - 2 * SURFACE_INSET_PX);
  return { ridge: ridgeStrength(grayOf(flat), flat.width, x0, y0, w, h), x0, y0, w, h };
}

/**
 * Each pixel's ridge strength over the w × h region at (x0, y0), which must lie at least OFFSET_PX
 * inside the image: how far the pixel stands above both of its neighbours OFFSET_PX away, in the
 * strongest of four directions (along x, along y, both diagonals), and 0 when it stands above
 * neither pair.
 *
 * This loop runs once per flat-card pixel, so its minima and maxima are written without branches,
 * as min(p, q) = (p + q − |p − q|) / 2 and max(p, q) = (p + q + |p − q|) / 2: on a photograph the
 * comparisons go either way at random, and Math.min/max's mispredicted branches made the loop six
 * times slower. The results are exactly those of Math.min/max: the grey levels are float32, so
 * every sum and difference here is exact in float64.
 *
 * `valley`, when given (w × h), receives each pixel's valley strength in the same pass: how far it
 * lies below both of its neighbours, the ridge strength of the grey levels turned over.
 */
export function ridgeStrength(
  gray: Float32Array,
  W: number,
  x0: number,
  y0: number,
  w: number,
  h: number,
  valley?: Float32Array,
): Float32Array {
  const ridge = new Float32Array(w * h);
  const along = [OFFSET_PX, OFFSET_PX * W, OFFSET_PX * W + OFFSET_PX, -OFFSET_PX * W + OFFSET_PX];
  const [s0 = 0, s1 = 0, s2 = 0, s3 = 0] = along;
  for (let y = 0; y < h; y++) {
    for (let x = 0, i = (y + y0) * W + x0, o = y * w; x < w; x++, i++, o++) {
      const c = gray[i] ?? 0;
      // Each direction's c − one neighbour plus c − the other (a), and their difference (d): twice
      // the min of the two is a − d, and twice the min of their negatives (the valley's) −a − d.
      let a = 2 * c - (gray[i + s0] ?? c) - (gray[i - s0] ?? c);
      let d = Math.abs((gray[i - s0] ?? c) - (gray[i + s0] ?? c));
      const m0 = a - d;
      const n0 = -a - d;
      a = 2 * c - (gray[i + s1] ?? c) - (gray[i - s1] ?? c);
      d = Math.abs((gray[i - s1] ?? c) - (gray[i + s1] ?? c));
      const m1 = a - d;
      const n1 = -a - d;
      a = 2 * c - (gray[i + s2] ?? c) - (gray[i - s2] ?? c);
      d = Math.abs((gray[i - s2] ?? c) - (gray[i + s2] ?? c));
      const m2 = a - d;
      const n2 = -a - d;
      a = 2 * c - (gray[i + s3] ?? c) - (gray[i - s3] ?? c);
      d = Math.abs((gray[i - s3] ?? c) - (gray[i + s3] ?? c));
      const m3 = a - d;
      const n3 = -a - d;
      // 4 × the larger of m0, m1 and of m2, m3; 8 × the largest; 16 × the largest or 0.
      const u = m0 + m1 + Math.abs(m0 - m1);
      const v = m2 + m3 + Math.abs(m2 - m3);
      const z = u + v + Math.abs(u - v);
      ridge[o] = (z + Math.abs(z)) / 16;
      if (valley) {
        const uv = n0 + n1 + Math.abs(n0 - n1);
        const vv = n2 + n3 + Math.abs(n2 - n3);
        const zv = uv + vv + Math.abs(uv - vv);
        valley[o] = (zv + Math.abs(zv)) / 16;
      }
    }
  }
  return ridge;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
