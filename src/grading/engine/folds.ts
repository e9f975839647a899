// Folds: creases that run across the card from one border to another. A real crease photographed
// is not the thin straight line a scratch is. It is a jagged, broken ridge of light along the fold,
// often millimetres off any straight line over its length and nearly parallel to one of the card's
// sides (a card folded in half). The scratch rules of surface.ts reject it on all counts: it is
// wider than a scratch, bends more than MAX_SAGITTA_MM, breaks into pieces, and a piece parallel
// to an edge is taken for printed structure. (Two real creases across a baseball card, each from
// cut to cut, came out surface 10.) What tells a fold from print instead:
// - it crosses the plain border at both ends, at an angle: printed lines stay inside the frame,
//   and the border is flat ink;
// - it is followed as one path along a line: ridge pixels (surface.ts's mask, over their block's
//   own threshold) within ±LINE_HALF_PX of an offset that moves at most STEP_DRIFT_PX per
//   STEP_PX step (a line within ~25° of the chord), within ±FOLLOW_BAND_PX of the chord;
// - the path meets ridge pixels on MIN_FOLD_COVERAGE of the examined steps between its ends, with
//   no gap longer than MAX_FOLD_GAP_MM, over MIN_FOLD_MM or more (a reading on ridge and valley
//   pixels together asks more, and a middle inside the frame: FoldBar, surface.ts);
// - and it stands out from the print beside it: the same path shifted across by BESIDE_PX and
//   twice that, either way, meets ridge pixels on at most MAX_BESIDE of its steps, and on
//   MIN_STANDOUT fewer than the path. Busy line art meets ridge pixels along any path (a
//   Pokémon illustration rare: 0.73 along a tent's edge, 0.39 beside it); the real creases
//   0.70–0.90 against 0.04–0.23.
// Candidate lines come from a Hough transform of the ridge pixels in the border strips only, a
// line kept when two strips vote for it (a fold crosses two of them; the border is plain, so on
// an undamaged card there are few), each ridge pixel voting for every line through it at 1° steps.
import { FLAT_PX_PER_MM, fitLine, type Point } from "./geometry";

const MM = FLAT_PX_PER_MM;
const ANGLE_STEPS = 180;
/** Hough distance bins (px), and how many either side a candidate line gathers (a jagged fold). */
const RHO_BIN_PX = 2;
const BAND_BINS = 2;
/** A candidate line needs this many ridge pixels within its band in each of two border strips. */
const MIN_END_VOTES = 3;
const MAX_CANDIDATES = 12;
/** A candidate within this many degrees and bins of a stronger one is the same line (a fold is jagged). */
const SAME_LINE_DEG = 6;
const SAME_LINE_BINS = 10;
/** The followed path stays within this many px of its candidate line. */
const FOLLOW_BAND_PX = 10;
/** Path steps along the line (px), and the least share of a step's columns with a ridge pixel. */
const STEP_PX = 4;
const STEP_HITS = 0.5;
/** A ridge pixel counts for the path within this many px of its offset… */
const LINE_HALF_PX = 1;
/** …and the offset moves by at most this many px from one covered step to the next. */
const STEP_DRIFT_PX = 2;
/**
 * Past a gap this long (px) the path may take up the line again anywhere in its band: a real
 * fold's piece in the border lay 10 px across from its piece inside the frame, past the dark
 * frame line between them.
 */
const DRIFT_RESET_PX = 12;
const MIN_FOLD_COVERAGE = 0.6;
const MAX_FOLD_GAP_MM = 8;
/** A fold must run at least this long (mm). */
const MIN_FOLD_MM = 20;

/**
 * What a fold must show: coverage of its examined steps, its length (mm), and whether its middle
 * must lie inside the frame (a fold across the card passes through its art; a line along one
 * border, from one side's border to the other's, does not).
 */
export interface FoldBar {
  coverage: number;
  lengthMm: number;
  middleInFrame: boolean;
}
/** A fold read on the ridge pixels alone (MIN_FOLD_COVERAGE, MIN_FOLD_MM). */
const RIDGE_FOLD: FoldBar = { coverage: MIN_FOLD_COVERAGE, lengthMm: MIN_FOLD_MM, middleInFrame: false };
/** The shifted paths' offsets (px), and how much of their steps may meet ridge pixels. */
const BESIDE_PX = 20;
const MAX_BESIDE = 0.25;
const MIN_STANDOUT = 0.4;
/** Each end of the path lies at least this many px past the frame line, into the border… */
const BORDER_DEPTH_PX = 3;
/** …and crosses that border at this angle or more (degrees) from its side. */
const MIN_CROSSING_DEG = 20;
/** Two folds whose ends lie within this many px of each other are one. */
const SAME_FOLD_PX = 3 * MM;

export interface Fold {
  /** The path's ends, in flat-card pixels. */
  from: Point;
  to: Point;
  lengthMm: number;
  /** Bounding box of the path's covered steps, in flat-card pixels. */
  box: { minX: number; minY: number; maxX: number; maxY: number };
}

/** The surface region's ridge pixels, as surface.ts reads them. */
export interface RidgeMask {
  /** Nonzero where a ridge pixel stands over its block's threshold; w × h at (x0, y0) on the flat card. */
  mask: Uint8Array;
  /** Whether the pixel's block was examined (calm enough for a line to be seen). */
  examined: (x: number, y: number) => boolean;
  w: number;
  h: number;
  x0: number;
  y0: number;
}

interface Step {
  covered: boolean;
  examined: boolean;
  /** Distance along the line of the step's middle, px. */
  at: number;
  /** The path's offset across the line at this step (the last covered one's where not covered). */
  offset: number;
}

/**
 * Folds across a flat card face (`W` × `H`), from the ridge pixels of its surface region and the
 * frame's widths (flat-card pixels).
 */
export function findFolds(
  ridges: RidgeMask,
  frame: { left: number; right: number; top: number; bottom: number },
  W: number,
  H: number,
  bar: FoldBar = RIDGE_FOLD,
): Fold[] {
  const { x0, y0 } = ridges;
  // The border strip a pixel of the region lies in (0 left, 1 right, 2 top, 3 bottom), -1 for
  // none or two (a corner).
  const strip = (x: number, y: number) => {
    const X = x + x0;
    const Y = y + y0;
    const across = X < frame.left ? 0 : X >= W - frame.right ? 1 : -1;
    const along = Y < frame.top ? 2 : Y >= H - frame.bottom ? 3 : -1;
    return across >= 0 && along >= 0 ? -1 : Math.max(across, along);
  };
  const candidates = borderLines(ridges, strip);
  const folds: Fold[] = [];
  const sameEnds = (fold: Fold, from: Point, to: Point) => {
    const near = (p: Point, q: Point) => Math.hypot(p.x - q.x, p.y - q.y) <= SAME_FOLD_PX;
    return (near(fold.from, from) && near(fold.to, to)) || (near(fold.from, to) && near(fold.to, from));
  };
  for (const line of candidates) {
    // Followed along the candidate, then along the line fitted to what was followed (a fold's
    // ends can lie further off the candidate than the band reaches).
    const path = followPath(ridges, line);
    const refit = path ? lineThroughPath(path) : null;
    const again = refit ? followPath(ridges, refit) : null;
    const fold =
      (again && judgeFold(ridges, again, frame, W, H, bar)) || (path && judgeFold(ridges, path, frame, W, H, bar));
    if (fold && !folds.some((other) => sameEnds(other, fold.from, fold.to))) folds.push(fold);
  }
  return folds;
}

interface Candidate {
  cos: number;
  sin: number;
  rho: number;
}

/**
 * Lines through the ridge pixels of two border strips: a Hough transform at 1° and RHO_BIN_PX
 * per strip (left, right, top, bottom; the corners, where two strips meet, left out), each cell's
 * votes summed over ±BAND_BINS. A line is a candidate when two strips give it MIN_END_VOTES or
 * more (a fold crosses the border at both ends); the MAX_CANDIDATES whose weaker end is
 * strongest are kept, none within SAME_LINE_DEG and SAME_LINE_BINS of a stronger one.
 */
function borderLines(ridges: RidgeMask, strip: (x: number, y: number) => number): Candidate[] {
  const { mask, w, h } = ridges;
  const diagonal = Math.ceil(Math.hypot(w, h));
  const bins = Math.ceil((2 * diagonal) / RHO_BIN_PX) + 1;
  const cos = new Float64Array(ANGLE_STEPS);
  const sin = new Float64Array(ANGLE_STEPS);
  for (let t = 0; t < ANGLE_STEPS; t++) {
    cos[t] = Math.cos((t * Math.PI) / ANGLE_STEPS);
    sin[t] = Math.sin((t * Math.PI) / ANGLE_STEPS);
  }
  // The border strips' ridge pixels; on a plain border too few in two strips to hold a fold, and
  // then nothing is allocated.
  const voters: { x: number; y: number; side: number }[] = [];
  const perSide = [0, 0, 0, 0];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!mask[y * w + x]) continue;
      const side = strip(x, y);
      if (side < 0) continue;
      voters.push({ x, y, side });
      perSide[side] = (perSide[side] ?? 0) + 1;
    }
  }
  const sides = [0, 1, 2, 3].filter((side) => (perSide[side] ?? 0) >= MIN_END_VOTES);
  if (sides.length < 2) return [];
  const cells = ANGLE_STEPS * bins;
  // One accumulator per strip, side by side; a cell's votes stop counting at 255.
  const votes = new Uint8Array(4 * cells);
  for (const { x, y, side } of voters) {
    const base = side * cells;
    for (let t = 0; t < ANGLE_STEPS; t++) {
      const i = base + t * bins + (((x * (cos[t] ?? 0) + y * (sin[t] ?? 0) + diagonal) / RHO_BIN_PX + 0.5) | 0);
      const v = votes[i] ?? 0;
      if (v < 255) votes[i] = v + 1;
    }
  }
  // Per cell, the band sums of the strips that vote (running sums along each angle's row); the
  // cell's score is the second largest, kept where it is a peak along the row.
  const rows = sides.map(() => new Uint16Array(bins));
  const score = new Uint16Array(bins);
  const found: { t: number; bin: number; score: number }[] = [];
  for (let t = 0; t < ANGLE_STEPS; t++) {
    for (let k = 0; k < sides.length; k++) {
      const row = rows[k] as Uint16Array;
      const base = (sides[k] ?? 0) * cells + t * bins;
      let sum = 0;
      for (let bin = 0; bin < bins; bin++) {
        sum += votes[base + bin] ?? 0;
        if (bin > 2 * BAND_BINS) sum -= votes[base + bin - 2 * BAND_BINS - 1] ?? 0;
        // The sum over bin − 2·BAND_BINS … bin, centred on bin − BAND_BINS.
        if (bin >= 2 * BAND_BINS) row[bin - BAND_BINS] = sum;
      }
    }
    for (let bin = 0; bin < bins; bin++) {
      let first = 0;
      let second = 0;
      for (let k = 0; k < rows.length; k++) {
        const sum = (rows[k] as Uint16Array)[bin] ?? 0;
        if (sum > first) {
          second = first;
          first = sum;
        } else if (sum > second) second = sum;
      }
      score[bin] = second;
    }
    for (let bin = 1; bin < bins - 1; bin++) {
      const value = score[bin] ?? 0;
      if (value >= MIN_END_VOTES && value >= (score[bin - 1] ?? 0) && value > (score[bin + 1] ?? 0)) {
        found.push({ t, bin, score: value });
      }
    }
  }
  found.sort((a, b) => b.score - a.score);
  const picked: { t: number; bin: number }[] = [];
  for (const cell of found) {
    if (picked.length >= MAX_CANDIDATES) break;
    const close = picked.some((p) => {
      const dt = Math.abs(p.t - cell.t);
      return Math.min(dt, ANGLE_STEPS - dt) <= SAME_LINE_DEG && Math.abs(p.bin - cell.bin) <= SAME_LINE_BINS;
    });
    if (!close) picked.push(cell);
  }
  return picked.map(({ t, bin }) => ({
    cos: cos[t] ?? 0,
    sin: sin[t] ?? 0,
    rho: bin * RHO_BIN_PX - diagonal,
  }));
}

/** A path followed along a candidate line: its steps, the first and last covered. */
interface Path {
  line: Candidate;
  steps: Step[];
  first: number;
  last: number;
}

/** The path of ridge pixels along a candidate line (see the file's head), or null when it is shorter than MIN_FOLD_MM. */
function followPath(ridges: RidgeMask, line: Candidate): Path | null {
  const { examined, w, h } = ridges;
  const { cos: c, sin: s, rho } = line;
  // The line's point nearest the region's origin, and its direction.
  const px = c * rho;
  const py = s * rho;
  const ux = -s;
  const uy = c;
  const chord = chordThrough(px, py, ux, uy, w, h);
  if (!chord) return null;
  const hit = (along: number, offset: number) => ridgeAt(ridges, line, along, offset);
  const columnHits = new Uint8Array(2 * FOLLOW_BAND_PX + 1);
  const steps: Step[] = [];
  let previous: number | null = null;
  let previousAt = Number.NEGATIVE_INFINITY;
  for (let a = chord.from; a + STEP_PX <= chord.to + 1; a += STEP_PX) {
    // Per offset, how many of the step's columns have a ridge pixel within ±LINE_HALF_PX of it.
    columnHits.fill(0);
    let inExamined = false;
    for (let k = 0; k < STEP_PX; k++) {
      const along = a + k;
      const mx = Math.round(px + ux * along);
      const my = Math.round(py + uy * along);
      if (mx >= 0 && my >= 0 && mx < w && my < h && examined(mx, my)) inExamined = true;
      let lastCounted = Number.NEGATIVE_INFINITY;
      for (let d = -FOLLOW_BAND_PX - LINE_HALF_PX; d <= FOLLOW_BAND_PX + LINE_HALF_PX; d++) {
        if (!hit(along, d)) continue;
        // Offsets o with |d − o| ≤ LINE_HALF_PX, each counted once per column.
        const top = Math.min(d + LINE_HALF_PX, FOLLOW_BAND_PX);
        for (let o = Math.max(d - LINE_HALF_PX, lastCounted + 1, -FOLLOW_BAND_PX); o <= top; o++) {
          const i = o + FOLLOW_BAND_PX;
          columnHits[i] = (columnHits[i] ?? 0) + 1;
          lastCounted = o;
        }
      }
    }
    const near = previous !== null && a - previousAt <= DRIFT_RESET_PX;
    let best = -1;
    let bestOffset = 0;
    for (let o = -FOLLOW_BAND_PX; o <= FOLLOW_BAND_PX; o++) {
      if (near && previous !== null && Math.abs(o - previous) > STEP_DRIFT_PX) continue;
      const count = columnHits[o + FOLLOW_BAND_PX] ?? 0;
      const closer = previous !== null && Math.abs(o - previous) < Math.abs(bestOffset - previous);
      if (count > best || (count === best && closer)) {
        best = count;
        bestOffset = o;
      }
    }
    const covered = best >= STEP_PX * STEP_HITS;
    if (covered) {
      previous = bestOffset;
      previousAt = a;
    }
    steps.push({
      covered,
      examined: inExamined || covered,
      at: a + STEP_PX / 2,
      offset: covered ? bestOffset : (previous ?? 0),
    });
  }
  const first = steps.findIndex((step) => step.covered);
  let last = -1;
  for (let i = steps.length - 1; i >= 0; i--) {
    if (steps[i]?.covered) {
      last = i;
      break;
    }
  }
  if (first < 0 || ((last - first + 1) * STEP_PX) / MM < MIN_FOLD_MM) return null;
  return { line, steps, first, last };
}

/**
 * The point `along` px along `line` from its point nearest the region's origin, `offset` px across
 * it (region pixels).
 */
function pointOn(line: Candidate, along: number, offset: number): Point {
  return {
    x: line.cos * line.rho - line.sin * along + line.cos * offset,
    y: line.sin * line.rho + line.cos * along + line.sin * offset,
  };
}

/** Whether the mask has a ridge pixel at `offset` across `line`, `along` px along it (pointOn, inlined: it runs per pixel). */
function ridgeAt(ridges: RidgeMask, line: Candidate, along: number, offset: number): boolean {
  const { mask, w, h } = ridges;
  const x = Math.round(line.cos * line.rho - line.sin * along + line.cos * offset);
  const y = Math.round(line.sin * line.rho + line.cos * along + line.sin * offset);
  return x >= 0 && y >= 0 && x < w && y < h && mask[y * w + x] !== 0;
}

/** The line fitted to a path's covered steps, as a candidate. */
function lineThroughPath(path: Path): Candidate | null {
  const points: Point[] = [];
  for (let i = path.first; i <= path.last; i++) {
    const step = path.steps[i] as Step;
    if (step.covered) points.push(pointOn(path.line, step.at, step.offset));
  }
  const fitted = fitLine(points);
  return fitted ? { cos: fitted.a, sin: fitted.b, rho: fitted.c } : null;
}

/** The fold a path is, or null when it is none (see the file's head). */
function judgeFold(
  ridges: RidgeMask,
  path: Path,
  frame: { left: number; right: number; top: number; bottom: number },
  W: number,
  H: number,
  bar: FoldBar,
): Fold | null {
  const { x0, y0 } = ridges;
  const { line, steps, first, last } = path;
  const hit = (along: number, offset: number) => ridgeAt(ridges, line, along, offset);
  const lengthMm = ((last - first + 1) * STEP_PX) / MM;
  // A step's point on the flat card.
  const pointAt = (step: Step): Point => {
    const p = pointOn(line, step.at, step.offset);
    return { x: p.x + x0, y: p.y + y0 };
  };
  const from = pointAt(steps[first] as Step);
  const to = pointAt(steps[last] as Step);
  // Both ends past the frame line, crossing their border at an angle (the line runs along (−sin, cos)).
  const direction = ((Math.atan2(line.cos, -line.sin) * 180) / Math.PI + 180) % 180;
  const fromHorizontal = Math.min(direction, 180 - direction);
  const fromVertical = Math.abs(90 - direction);
  const crossesBorder = (p: Point) =>
    ((p.x < frame.left - BORDER_DEPTH_PX || p.x >= W - frame.right + BORDER_DEPTH_PX) &&
      fromVertical >= MIN_CROSSING_DEG) ||
    ((p.y < frame.top - BORDER_DEPTH_PX || p.y >= H - frame.bottom + BORDER_DEPTH_PX) &&
      fromHorizontal >= MIN_CROSSING_DEG);
  if (!crossesBorder(from) || !crossesBorder(to)) return null;
  const middle = { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 };
  const inFrame =
    middle.x >= frame.left && middle.x < W - frame.right && middle.y >= frame.top && middle.y < H - frame.bottom;
  if (bar.middleInFrame && !inFrame) return null;
  // Coverage over the examined steps between the ends, and the longest examined gap.
  let covered = 0;
  let examinedSteps = 0;
  let gap = 0;
  let longestGap = 0;
  const box = { minX: Number.POSITIVE_INFINITY, minY: Number.POSITIVE_INFINITY, maxX: 0, maxY: 0 };
  for (let i = first; i <= last; i++) {
    const step = steps[i] as Step;
    if (step.covered) {
      covered++;
      examinedSteps++;
      gap = 0;
      const p = pointAt(step);
      box.minX = Math.min(box.minX, p.x);
      box.minY = Math.min(box.minY, p.y);
      box.maxX = Math.max(box.maxX, p.x);
      box.maxY = Math.max(box.maxY, p.y);
    } else if (step.examined) {
      examinedSteps++;
      gap++;
      longestGap = Math.max(longestGap, gap);
    }
  }
  const coverage = covered / Math.max(1, examinedSteps);
  if (lengthMm < bar.lengthMm || coverage < bar.coverage || (longestGap * STEP_PX) / MM > MAX_FOLD_GAP_MM) return null;
  // The print beside the path: the path shifted across, either way.
  let besideCovered = 0;
  let besideExamined = 0;
  for (const shift of [-BESIDE_PX, BESIDE_PX, -2 * BESIDE_PX, 2 * BESIDE_PX]) {
    for (let i = first; i <= last; i++) {
      const step = steps[i] as Step;
      if (!step.examined) continue;
      besideExamined++;
      let columns = 0;
      for (let k = 0; k < STEP_PX; k++) {
        const along = step.at - STEP_PX / 2 + k;
        for (let d = step.offset + shift - LINE_HALF_PX; d <= step.offset + shift + LINE_HALF_PX; d++) {
          if (hit(along, d)) {
            columns++;
            break;
          }
        }
      }
      if (columns >= STEP_PX * STEP_HITS) besideCovered++;
    }
  }
  const beside = besideCovered / Math.max(1, besideExamined);
  if (beside > MAX_BESIDE || coverage - beside < MIN_STANDOUT) return null;
  return { from, to, lengthMm, box };
}

/** Where the line p + a·u runs inside the w × h region: the range of a, or null. */
function chordThrough(
  px: number,
  py: number,
  ux: number,
  uy: number,
  w: number,
  h: number,
): { from: number; to: number } | null {
  let from = Number.NEGATIVE_INFINITY;
  let to = Number.POSITIVE_INFINITY;
  for (const [p, u, max] of [
    [px, ux, w - 1],
    [py, uy, h - 1],
  ] as const) {
    if (Math.abs(u) < 1e-9) {
      if (p < 0 || p > max) return null;
      continue;
    }
    const a = -p / u;
    const b = (max - p) / u;
    from = Math.max(from, Math.min(a, b));
    to = Math.min(to, Math.max(a, b));
  }
  return to > from ? { from, to } : null;
}
