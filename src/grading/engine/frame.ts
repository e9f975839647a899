// The printed frame on the flat card: where the border ends and the artwork begins, per side.
// Each scan line (rows for left/right, columns for top/bottom, the middle 60 % of the side) walks
// inward from just inside the card edge, compares each pixel's colour with the border colour
// measured at 0.3–0.6 mm from the edge, and marks the first run of three pixels that differ by
// more than the noise allows. The 50 % crossing of that step gives a sub-pixel position; the side's
// width is the median over scan lines, and the share of lines that agree is its confidence.
import { median } from "./geometry";
import type { RgbaImage } from "./image";

export type Side = "left" | "right" | "top" | "bottom";

export interface SideMeasurement {
  /** Border width in flat-card pixels. */
  width: number;
  /** Share of scan lines within 1.5 px of the median. */
  agreement: number;
  /** Share of scan lines on which a transition was found. */
  coverage: number;
  /** Mean border colour (RGB). */
  borderColor: [number, number, number];
}

export type FrameResult = { ok: true; sides: Record<Side, SideMeasurement> } | { ok: false; reason: string };

/** How far inward the frame is looked for: 30 % of the card's width (19 mm). */
const MAX_SCAN_SHARE = 0.3;
const MIN_AGREEMENT = 0.5;
const MIN_COVERAGE = 0.6;

export function measureFrame(flat: RgbaImage): FrameResult {
  const sides = {} as Record<Side, SideMeasurement>;
  for (const side of ["left", "right", "top", "bottom"] as const) {
    const measured = measureSide(flat, side);
    if (!measured) return { ok: false, reason: `the printed frame could not be found on the ${side} side` };
    if (measured.coverage < MIN_COVERAGE || measured.agreement < MIN_AGREEMENT) {
      return { ok: false, reason: `the printed frame on the ${side} side is not clear enough to measure` };
    }
    sides[side] = measured;
  }
  return { ok: true, sides };
}

function measureSide(flat: RgbaImage, side: Side): SideMeasurement | null {
  const { width: W, height: H, data } = flat;
  const horizontal = side === "left" || side === "right";
  const along = horizontal ? H : W; // scan lines run across this extent
  const across = horizontal ? W : H; // each scan line's length
  const fromEnd = side === "right" || side === "bottom";
  const pixel = (line: number, depth: number, ch: number): number => {
    const pos = fromEnd ? across - 1 - depth : depth;
    const x = horizontal ? pos : line;
    const y = horizontal ? line : pos;
    return data[(y * W + x) * 4 + ch] ?? 0;
  };
  const refStart = Math.round(across * 0.0035);
  const refEnd = Math.max(refStart + 2, Math.round(across * 0.0075));
  const maxDepth = Math.round(W * MAX_SCAN_SHARE);
  const lines: number[] = [];
  for (let line = Math.round(along * 0.2); line < along * 0.8; line += 2) lines.push(line);

  // Border colour (per-channel median) and its noise (1.4826 × median absolute deviation) from
  // the reference strip of every scan line: robust to chips and dirt in the strip.
  const channels: number[][] = [[], [], []];
  for (const line of lines) {
    for (let d = refStart; d < refEnd; d++) for (let ch = 0; ch < 3; ch++) channels[ch]?.push(pixel(line, d, ch));
  }
  const ref = channels.map((values) => median(values)) as [number, number, number];
  const distanceAt = (line: number, d: number) =>
    Math.hypot(pixel(line, d, 0) - ref[0], pixel(line, d, 1) - ref[1], pixel(line, d, 2) - ref[2]);
  const deviations: number[] = [];
  for (const line of lines) for (let d = refStart; d < refEnd; d++) deviations.push(distanceAt(line, d));
  const noise = 1.4826 * median(deviations);
  const threshold = Math.max(24, 5 * noise);

  const positions: number[] = [];
  for (const line of lines) {
    const profile = new Float64Array(maxDepth + 8);
    for (let d = refStart; d < maxDepth + 8 && d < across; d++) profile[d] = distanceAt(line, d);
    let found = -1;
    for (let d = refEnd; d < maxDepth; d++) {
      if ((profile[d] ?? 0) > threshold && (profile[d + 1] ?? 0) > threshold && (profile[d + 2] ?? 0) > threshold) {
        found = d;
        break;
      }
    }
    if (found < 0) continue;
    const artLevel = ((profile[found + 2] ?? 0) + (profile[found + 3] ?? 0) + (profile[found + 4] ?? 0)) / 3;
    const borderLevel = ((profile[found - 2] ?? 0) + (profile[found - 3] ?? 0)) / 2;
    const target = (artLevel + borderLevel) / 2;
    // Find the crossing of `target` between pixel centres found-2 … found+2.
    let position = found;
    for (let d = found - 2; d <= found + 2; d++) {
      const a = profile[d] ?? 0;
      const b = profile[d + 1] ?? 0;
      if (a < target && b >= target) {
        position = d + 0.5 + (target - a) / (b - a);
        break;
      }
    }
    positions.push(position);
  }
  if (positions.length === 0) return null;
  const width = median(positions);
  const agreeing = positions.filter((p) => Math.abs(p - width) <= 1.5).length;
  return {
    width,
    agreement: agreeing / positions.length,
    coverage: positions.length / lines.length,
    borderColor: ref,
  };
}
