// A bevelled rim: a border printed as a shade that darkens steadily from the cut inward and ends
// in a sharp step into the card's body (a Yu-Gi-Oh! card's rim, 1.3–2 mm wide: on real photos its
// luma falls 14–60 levels from 0.35 mm in to its darkest, 1.1–2.2 mm in, then rises 35–180 within
// a few pixels). It is no flat border, and the steps that read one mislead on it twice over:
// - on the flat card (frame.ts), read from a strip by the cut, the rim's own shading stands out
//   from that colour part-way across it, and the line found there is no print at all (real
//   photos: "a broken line 1.2 mm in", "a faint line 1.2 mm in before the line found 2.0 mm in");
// - in the photo (refine-outline.ts), the rim's outer edge against the table and its inner edge
//   against the body are two edges along one side, as a sleeve's and its card's are.
// A profile read inward from the cut is a rim's when, from RIM_FROM_MM in, its luma:
// - falls to its lowest (the running minimum before the rise below) at least RIM_MIN_LENGTH_MM
//   further in and at most RIM_MAX_DEPTH_MM from the cut, by at least RIM_MIN_DESCENT levels;
// - falls steadily: never rises RIM_MAX_BUMP above where it began, and no two pixels take more
//   than RIM_MAX_DROP_SHARE of the fall, nor RIM_MAX_DROP_RATE times its mean over two pixels (a
//   flat border with a dark line printed at its frame falls all at once; a flat band before a rim,
//   a sleeve's margin or the table taken in, falls nowhere and then fast);
// - then rises by RIM_MIN_RISE, and by at least RIM_MIN_RISE_SHARE of the fall, within
//   RIM_RISE_MM (plus the cut's blur) of its lowest: a step into the body.

const RIM_FROM_MM = 0.35;
const RIM_MIN_LENGTH_MM = 0.6;
const RIM_MAX_DEPTH_MM = 3.5;
const RIM_MIN_DESCENT = 12;
const RIM_MAX_BUMP = 6;
const RIM_MAX_DROP_SHARE = 0.5;
const RIM_MAX_DROP_RATE = 2.5;
export const RIM_MIN_RISE = 30;
const RIM_MIN_RISE_SHARE = 0.5;
export const RIM_RISE_MM = 0.75;

/** How many pixels from the cut a profile must reach for rimLow to read a rim (at `pxPerMm`). */
export function rimReach(pxPerMm: number, blurMm: number): number {
  return Math.round(RIM_MAX_DEPTH_MM * pxPerMm) + Math.ceil((RIM_RISE_MM + blurMm) * pxPerMm) + 1;
}

/**
 * Where a rim is darkest (pixels from the cut), on a luma profile read inward from the cut one
 * pixel apart (`lumas[0]` at the cut) at `pxPerMm`, the cut's blur `blurMm`; null when the
 * profile is no rim's (see the file's head).
 */
export function rimLow(lumas: ArrayLike<number>, pxPerMm: number, blurMm: number): number | null {
  const from = Math.round(RIM_FROM_MM * pxPerMm);
  const riseReach = Math.ceil((RIM_RISE_MM + blurMm) * pxPerMm);
  const at = (d: number) => lumas[d] ?? 0;
  let low = from;
  let risen = -1;
  for (let d = from; d < lumas.length && d - low <= riseReach; d++) {
    if (at(d) < at(low)) low = d;
    if (at(d) - at(low) >= RIM_MIN_RISE) {
      risen = d;
      break;
    }
  }
  if (risen < 0 || low > RIM_MAX_DEPTH_MM * pxPerMm || low - from < RIM_MIN_LENGTH_MM * pxPerMm) return null;
  const start = at(from);
  const descent = start - at(low);
  if (descent < RIM_MIN_DESCENT) return null;
  for (let d = from; d <= low; d++) if (at(d) > start + RIM_MAX_BUMP) return null;
  const maxDrop = Math.min(RIM_MAX_DROP_SHARE * descent, (RIM_MAX_DROP_RATE * 2 * descent) / (low - from));
  for (let d = from; d + 2 <= low; d++) if (at(d) - at(d + 2) > maxDrop) return null;
  let top = at(low);
  for (let d = low + 1; d <= low + riseReach && d < lumas.length; d++) top = Math.max(top, at(d));
  if (top - at(low) < Math.max(RIM_MIN_RISE, RIM_MIN_RISE_SHARE * descent)) return null;
  return low;
}

/**
 * A rim that begins at the cut: one rimLow reads whose luma 1 mm in (RIM_EARLY_MM) already lies
 * RIM_EARLY_FALL of its descent below where it began. A sleeve's flat margin before a rim (a
 * Yu-Gi-Oh! card in a coloured 62 × 89 mm sleeve, its margin 1.2–1.8 mm) reads to rimLow as a
 * wider rim, but falls nowhere over that first millimetre (drawn: 0–3 % of its descent); a real
 * rim read from its cut had fallen 60 %, drawn ones 30 % or more. Only the format a rim names
 * rests on it (formats.ts, RIM_FORMAT_TOLERANCE): the frame reads a rim with rimLow alone.
 */
const RIM_EARLY_MM = 1;
const RIM_EARLY_FALL = 0.15;

export function rimFromCut(lumas: ArrayLike<number>, pxPerMm: number, blurMm: number): number | null {
  const low = rimLow(lumas, pxPerMm, blurMm);
  if (low === null) return null;
  const at = (d: number) => lumas[d] ?? 0;
  const from = Math.round(RIM_FROM_MM * pxPerMm);
  const early = Math.min(low, Math.round(RIM_EARLY_MM * pxPerMm));
  return at(from) - at(early) >= RIM_EARLY_FALL * (at(from) - at(low)) ? low : null;
}
