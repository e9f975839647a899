// Centering that can be stood behind: border widths from the frame measured at two scales, which
// must agree, and the precision the photo's pixels allow. The margin to the next grade and the
// frame lines in the photo are the evidence's (build-evidence.ts).
import { type FrameResult, MAX_CLEAN_CUT_BLUR_MM } from "./frame";
import type { Side, SideMeasurement } from "./frame-side";
import { FLAT_PX_PER_MM } from "./geometry";
import type { FaceCentering } from "./types";

/**
 * The two scales' centering offsets must agree within this many percentage points, or every
 * border within MAX_SCALE_DISAGREEMENT_MM; beyond both, one of them saw something other than the
 * printed frame, and the side is not reported.
 */
export const MAX_SCALE_DISAGREEMENT = 0.5;
/**
 * A quarter of a pixel of the half-resolution copy (4 px/mm): the closest that copy places a line.
 * On a thin border (2 mm in all on an axis) this alone is 3 points, so a disagreement in points
 * that stays within it on every side is the half scale's own precision, not another line.
 */
export const MAX_SCALE_DISAGREEMENT_MM = 0.0625;
/**
 * The predicted uncertainty (1 σ) of a centering offset, from the photo's resolution and its
 * edges' sharpness, may be at most this many percentage points: a 1-point error is then ~3.3 σ.
 * Over 270 drawn photos (seeds 1010–9090) the only two graded with σ over 0.3 (0.31 each, thin
 * borders of 2.5–2.9 mm an axis under blur, at 7 px/mm) were 0.57 and 1.12 points off, against
 * a mean of 0.1 for the 229 others (σ at most 0.25): the model is optimistic at its limit.
 */
export const MAX_CENTERING_SIGMA = 0.3;
/**
 * The card's edges may rise (10–90 %) over at most this many mm, and over at most
 * MAX_BLUR_TO_BORDER of the mean border on the thinner axis. Blur spreads the printed frame's step
 * as far as the cut's; once the two spreads reach into each other, the border's own colour is
 * nowhere clear of both, and a border read from them is biased the same way on every profile, so
 * averaging does not remove it. On 400 drawn photos blurred 0–3 px more than drawn (seeds
 * 3030–6060, every category but wear), with the predicted-precision limit above: thin borders
 * (1.1–1.6 mm a side) blurred over 0.38–0.5 mm, a third of their border or more, came out
 * 1.0–1.8 points off; wider borders blurred up to 0.85 mm within 1 point, but for one white card
 * (1.41 points off at 0.5 mm, as before the ramp reading in frame.ts); past 0.85 mm, up to 1.2
 * points off.
 */
export const MAX_EDGE_BLUR_MM = 0.85;
export const MAX_BLUR_TO_BORDER = 1 / 3;

/** The blur limit, in mm, for a face with these border widths (flat-card pixels). */
export function edgeBlurLimitMm(widths: Widths): number {
  const thinnerMm = Math.min(widths.left + widths.right, widths.top + widths.bottom) / 2 / FLAT_PX_PER_MM;
  return Math.min(MAX_EDGE_BLUR_MM, MAX_BLUR_TO_BORDER * thinnerMm);
}

/**
 * Below this resolution the 0.35–0.75 mm strip that gives the border's colour holds no photo pixel
 * clear of the card edge's blur, and the frame cannot be told from the edge.
 */
export const MIN_PX_PER_MM = 3;

export type Widths = Record<Side, number>;

export function widthsOf(sides: Record<Side, SideMeasurement>): Widths {
  return { left: sides.left.width, right: sides.right.width, top: sides.top.width, bottom: sides.bottom.width };
}

/** An end printed as a bar of the border's colour deeper than the other borders (frame.ts, printReading). */
export type Bar = "top" | "bottom" | null;

/**
 * The widths centering is read from. An end printed as a bar (`bar`) has a designed width no
 * photo shows, so it counts as printed as wide as the side borders' mean less the other end's
 * shift from it: a design with such a bar prints its other end as wide as its sides (a modern
 * Magic card's top, left and right borders: 2.48–2.59 mm on each of 15 renders of its frame, at
 * 3.5 px per mm, as the pixel allows). That mean does not move with a miscut across the card (what one
 * side gains the other loses), so the other end's distance from it is the print's shift along
 * the card, and the axis reads as a plain one shifted as much would.
 */
export function designedWidths(widths: Widths, bar: Bar): Widths {
  if (bar === null) return widths;
  const other = bar === "top" ? "bottom" : "top";
  return { ...widths, [bar]: widths.left + widths.right - widths[other] };
}

/** `bar`: an end printed as a bar (designedWidths); the borders reported are those measured. */
export function faceCentering(widths: Widths, bar: Bar = null): FaceCentering {
  const { left, right, top, bottom } = designedWidths(widths, bar);
  const mm = (px: number) => Math.round((px / FLAT_PX_PER_MM) * 10) / 10;
  return {
    left_right: (left / (left + right)) * 100,
    top_bottom: (top / (top + bottom)) * 100,
    borders_mm: { left: mm(widths.left), right: mm(widths.right), top: mm(widths.top), bottom: mm(widths.bottom) },
  };
}

export type TwoScaleResult =
  | { ok: true; widths: Widths; bar: Bar; centering: FaceCentering; agreement: number }
  | {
      ok: false;
      side: Side | null;
      reason: string;
      /** Both scales found the frame on every side, their centerings this many points apart. */
      apart?: number;
    };

/**
 * Both scales must find the frame on all four sides (and the same end as a bar, or none) and give the same centering within
 * MAX_SCALE_DISAGREEMENT points or the same borders within MAX_SCALE_DISAGREEMENT_MM; otherwise
 * the side that moved most is named.
 */
export function agreeOnCentering(
  full: FrameResult,
  half: FrameResult,
  toleranceMm = MAX_SCALE_DISAGREEMENT_MM,
): TwoScaleResult {
  if (!full.ok) return full;
  if (!half.ok) return { ok: false, side: half.side, reason: `at half resolution, ${half.reason}` };
  const bar = full.bar;
  if (half.bar !== bar) {
    const side = bar ?? half.bar ?? "bottom";
    return {
      ok: false,
      side,
      reason: `the ${side} border reads as a bar of print deeper than the other borders at ${bar ? "full" : "half"} resolution only, so what its printed frame is cannot be told`,
    };
  }
  const a = widthsOf(full.sides);
  const b = widthsOf(half.sides);
  if (bar !== null) {
    const other = bar === "top" ? "bottom" : "top";
    if (a[other] >= a.left + a.right) {
      const mm = (px: number) => (px / FLAT_PX_PER_MM).toFixed(2);
      return {
        ok: false,
        side: other,
        reason: `the ${bar} border is a bar of print deeper than the others, and the ${other} border (${mm(a[other])} mm) is as wide as the left and right ones together (${mm(a.left + a.right)} mm), so its shift cannot be read against them`,
      };
    }
  }
  const ca = faceCentering(a, bar);
  const cb = faceCentering(b, bar);
  const agreement = Math.max(Math.abs(ca.left_right - cb.left_right), Math.abs(ca.top_bottom - cb.top_bottom));
  // A bar's own line does not enter the centering, so it is not what two scales must agree on.
  let worst: Side = "left";
  for (const side of ["left", "right", "top", "bottom"] as const) {
    if (side !== bar && Math.abs(a[side] - b[side]) > Math.abs(a[worst] - b[worst])) worst = side;
  }
  const largestMm = Math.abs(a[worst] - b[worst]) / FLAT_PX_PER_MM;
  if (agreement > MAX_SCALE_DISAGREEMENT && largestMm > toleranceMm) {
    const mm = (px: number) => (px / FLAT_PX_PER_MM).toFixed(2);
    return {
      ok: false,
      side: worst,
      reason: `the printed frame on the ${worst} side could not be measured consistently (${mm(a[worst])} mm at full and ${mm(b[worst])} mm at half resolution, ${agreement.toFixed(1)} centering points apart)`,
      apart: agreement,
    };
  }
  return { ok: true, widths: a, bar, centering: ca, agreement };
}

/**
 * Full and half scale at most this many points apart read one line, placed differently by the
 * half copy's coarser pixels (a frame's step that is not one clean edge: a thin rule, a stepped
 * or textured frame), and a third reading, on a copy at three quarters of the flat card's
 * resolution, settles it (agreeAtThreeScales). Further apart, one of them read another line.
 */
export const MAX_SETTLED_DISAGREEMENT = 1;

/**
 * The half copy (4 px/mm, a pixel of 0.25 mm) cannot resolve a frame's step that is not one clean
 * edge: a dark or light rim 0.1–0.4 mm wide between the border and the frame (a modern Magic
 * card's bevel, a vintage card's outline rule) or a step that rises in two stages merges with
 * the border or the frame in its pixels, and moves its line by up to half a pixel. Where the photo
 * holds more pixels on the card than the flat card does, a reading at twice the flat card's
 * resolution from them is finer than the flat card as the half copy is coarser: full and half
 * scales at most this many points apart are settled when the flat card and that reading agree
 * (a drawn black border with a 0.375 mm rim inside it along two sides: the half copy 1.0 point
 * from the flat card, the finer reading on the drawn step, frame.test.ts). Of the 229 local real
 * photos it grades two, sharp photos refused before for their two scales 0.5 and 0.6 points
 * apart: a navy Pokémon back (its right frame 3.10 mm at full, 3.02 at half resolution; the finer
 * reading within 0.31 points of the full one) and a yellow-bordered Magikarp (its left frame 2.60,
 * 2.70, and 2.59 at twice the resolution, against 2.58 by hand). Of the four others asked, the
 * finer reading disagrees with the full one on two (a navy back's top frame 3.37 mm at full and
 * 3.18 at twice the resolution) and finds no frame on a side of two (a faint line before the
 * frame, print before the line). Further apart, the half copy read another line, and agreement
 * elsewhere does not settle that.
 */
export const MAX_DOUBLE_SETTLED_DISAGREEMENT = 2;
/** A quarter of a flat-card pixel (8 px/mm), the coarser of the two readings compared. */
export const MAX_DOUBLE_DISAGREEMENT_MM = 0.03125;

/**
 * agreeOnCentering of the full and half scales; where they are more than MAX_SCALE_DISAGREEMENT
 * but at most MAX_SETTLED_DISAGREEMENT points apart in a sharp photo (the card's cut rising over
 * at most MAX_CLEAN_CUT_BLUR_MM, `blurMm`), the full scale's reading stands when the copy at three
 * quarters of its resolution (`threeQuarter`, read only then) agrees with it as the half copy
 * must. Its `agreement` is then the full and half scales' disagreement, the largest of the
 * estimates'. In a soft photo the frame's step spreads over more than the half copy's pixel, and
 * each scale's reading sits where its window falls on the spread step: a third window between
 * the two says nothing of which is right. Of the 229 local real photos it grades one: a
 * white-bordered Magic card (its cut rising over 0.14 mm) read 0.6 points apart at full and half
 * scale, 0.4 and 0.0 points from a hand reading. Asked of a soft one (a black Magic card, its cut
 * rising over 0.54 mm, read 0.7 apart), it graded it 1.0 point from a hand reading, and a copy of
 * the photo turned half round 1.1 points from the photo itself. Where the photo holds the reading
 * at twice the flat card's resolution (`double`, below), that must not disagree with the full one
 * either: on a real photo of a Yu-Gi-Oh! card in a holder with a blue margin and square corners,
 * whose margin the outline took for a border, the copy at three quarters agreed with the flat
 * card (0.8 points from the half copy) and the finer reading did not; graded, its centering
 * would have been the card's place in the holder.
 *
 * Not settled so, and at most MAX_DOUBLE_SETTLED_DISAGREEMENT points apart in a sharp photo, the
 * full scale's reading stands when one at twice its resolution (`double`: null when the photo
 * does not hold that many pixels on the card) agrees with it within MAX_SCALE_DISAGREEMENT points
 * or MAX_DOUBLE_DISAGREEMENT_MM on every side: see MAX_DOUBLE_SETTLED_DISAGREEMENT.
 *
 * Settled by neither, and however far apart in a sharp photo, the full scale's reading stands
 * where the half copy missed a rule the flat card read (`ruleAt`; ruleTooFineForHalf).
 */
export function agreeAtThreeScales(
  full: FrameResult,
  half: FrameResult,
  threeQuarter: () => FrameResult,
  blurMm: number,
  readDouble: () => FrameResult | null = () => null,
  ruleAt: RuleAt = () => false,
  readSoft: SoftReadings = () => null,
): TwoScaleResult {
  const first = agreeOnCentering(full, half);
  if (first.ok || first.apart === undefined) return first;
  if (blurMm > MAX_CLEAN_CUT_BLUR_MM) return first;
  let fine: FrameResult | null | undefined;
  const double = () => {
    if (fine === undefined) fine = readDouble();
    return fine;
  };
  const unsettled: string[] = [];
  // The finer reading, where the photo holds it, agrees with the flat card (null when there is none).
  const finerAgrees = () => {
    const finer = double();
    return finer === null ? null : agreeOnCentering(full, finer, MAX_DOUBLE_DISAGREEMENT_MM);
  };
  if (first.apart <= MAX_SETTLED_DISAGREEMENT) {
    const second = agreeOnCentering(full, threeQuarter());
    if (second.ok) {
      const third = finerAgrees();
      if (third === null || third.ok) return { ...second, agreement: Math.max(second.agreement, first.apart) };
      return {
        ...first,
        reason: `${first.reason}; a reading at three-quarter resolution agrees with the full one, but a reading at twice the resolution does not`,
      };
    }
    unsettled.push("three-quarter resolution");
  }
  if (first.apart <= MAX_DOUBLE_SETTLED_DISAGREEMENT) {
    const third = finerAgrees();
    if (third !== null) {
      if (third.ok) return { ...third, agreement: Math.max(third.agreement, first.apart) };
      unsettled.push("twice the resolution");
    }
  }
  const pastRule = ruleTooFineForHalf(full, half, threeQuarter, double, ruleAt);
  if (pastRule) return pastRule;
  const bySoftStep = softStepSettles(full, half, readSoft);
  if (bySoftStep) return bySoftStep;
  if (unsettled.length === 0) return first;
  const readings =
    unsettled.length === 1 ? `a reading at ${unsettled[0]} does` : `readings at ${unsettled.join(" and at ")} do`;
  return { ...first, reason: `${first.reason}, and ${readings} not settle it` };
}

/**
 * The flat card's frame read again with its steps followed as ramps (frame.ts, SOFT_STEP_MM) on
 * `sides`, and the reading at twice its resolution read so too (null where the photo does not
 * hold it); null where not read.
 */
export type SoftReadings = (sides: readonly Side[]) => { full: FrameResult; double: () => FrameResult | null } | null;

/**
 * A printed frame whose step rises over more than the cut's blur into flat ink (a modern Magic
 * card's bevelled frame: 0.6–0.9 mm on real photos, the cut 0.25) is read part-way up its step by
 * the flat card's fixed window (ART_WINDOW: its pixels 2–4 past the first over the threshold, still
 * on the ramp) and near its middle by the half copy's, twice as wide: the half copy reads deeper,
 * and the two scales disagree. Where every side they read apart is so, the flat card is read again
 * on those sides with each step followed to where it levels off (SOFT_STEP_MM), and stands when
 * it then agrees with the half copy as the first reading had to, and the reading at twice its
 * resolution, read the same way where the photo holds it, agrees with it too. Where the half copy
 * reads a side shallower than the flat card, or the step read again does not move, or either
 * reading disagrees, the refusal stands (a finer reading refused only on a collector bar's side,
 * whose line does not enter the centering, counts as none). On a real photo of a modern Magic
 * card (`pat-card1.png`) the top frame read 2.57 mm at full and 2.65 at half resolution, and read
 * again 2.65, as a hand reading of six luma profiles across it has it (2.64); on a tilted photo of
 * another (its finer reading refused at the bar), 1.97 and 2.06, again 2.05, where straight photos
 * of the same card read 2.07 at both scales.
 */
function softStepSettles(full: FrameResult, half: FrameResult, readSoft: SoftReadings): TwoScaleResult | null {
  const read = deeperAtHalf(full, half);
  if (!read) return null;
  const { bar, a, b, apart } = read;
  const soft = readSoft(apart);
  if (!soft?.full.ok || soft.full.bar !== bar) return null;
  const c = widthsOf(soft.full.sides);
  // Read again, each side lands where the half copy read it: a step read part-way up once more is
  // not one ramp (a dark band before a lighter frame, each a step of its own).
  const landed = (side: Side) =>
    c[side] > a[side] && Math.abs(c[side] - b[side]) <= MAX_DOUBLE_DISAGREEMENT_MM * FLAT_PX_PER_MM;
  if (!apart.every(landed)) return null;
  const withHalf = agreeOnCentering(soft.full, half);
  if (!withHalf.ok) return null;
  // A finer reading refused on the bar's side, whose line does not enter the centering, says
  // nothing of the sides apart: it counts as none.
  const fine = soft.double();
  const finer = fine && !fine.ok && fine.side === bar ? null : fine;
  const withFiner = finer === null ? null : agreeOnCentering(soft.full, finer, MAX_DOUBLE_DISAGREEMENT_MM);
  if (withFiner !== null && !withFiner.ok) return null;
  return { ...withHalf, agreement: Math.max(withHalf.agreement, withFiner?.agreement ?? 0) };
}

/**
 * The sides the flat card and its half copy read apart (by more than MAX_SCALE_DISAGREEMENT_MM, a
 * bar's own line aside) and both scales' widths, when the half copy reads every one of them
 * deeper; otherwise null.
 */
function deeperAtHalf(full: FrameResult, half: FrameResult): { bar: Bar; a: Widths; b: Widths; apart: Side[] } | null {
  if (!full.ok || !half.ok || full.bar !== half.bar) return null;
  const bar = full.bar;
  const a = widthsOf(full.sides);
  const b = widthsOf(half.sides);
  const apart = (["left", "right", "top", "bottom"] as const).filter(
    (side) => side !== bar && Math.abs(a[side] - b[side]) > MAX_SCALE_DISAGREEMENT_MM * FLAT_PX_PER_MM,
  );
  if (apart.length === 0 || !apart.every((side) => b[side] > a[side])) return null;
  return { bar, a, b, apart };
}

/** Whether the flat card's frame line on a side, `from` px in, is a rule of its own before a line `to` px in (frame-side.ts, ruleBefore). */
export type RuleAt = (side: Side, from: number, to: number) => boolean;

/**
 * A frame printed as a thin rule with the border's colour behind it, then a second line (a
 * Topps Heritage card's art box: a dark rule 0.35 mm wide, 0.3 mm of white, a dark line 0.9 mm in
 * from the rule's front), is read at the rule by the flat card and at the second line by the half
 * copy, whose step needs three of its pixels in a row off the border's colour, more than the rule
 * and its gap hold wherever its pixels straddle them (MAX_RULE_MM). Where every side the two
 * scales read apart is such a side (the half copy deeper, `ruleAt`), the half copy could not
 * resolve the line the flat card read: the full scale's reading stands when the copy at three
 * quarters of its resolution and the reading at twice it both agree with it as the half copy
 * must. Its `agreement` is theirs. Where the half copy reads a line before the flat card's, or one
 * step at two depths (a soft frame, a ramp: no gap of the border's colour between), it stands
 * against the flat card as before. On a real photo of a Topps Heritage card, the flat card read
 * its right frame 2.99 mm in, the copies at three quarters and twice the resolution 3.02 and
 * 3.05, the half copy 4.01 (the art box's inner line): 7.6 points apart, refused before.
 */
function ruleTooFineForHalf(
  full: FrameResult,
  half: FrameResult,
  threeQuarter: () => FrameResult,
  double: () => FrameResult | null,
  ruleAt: RuleAt,
): TwoScaleResult | null {
  const read = deeperAtHalf(full, half);
  if (!read) return null;
  const { bar, a, b, apart } = read;
  if (!apart.every((side) => ruleAt(side, a[side], b[side]))) return null;
  const base = faceCentering(a, bar);
  const axisOf = (side: Side) => (side === "left" || side === "right" ? "left_right" : "top_bottom");
  // Another copy agrees on the axes of the sides apart: their centering within
  // MAX_SCALE_DISAGREEMENT points, or each of those sides within `toleranceMm`.
  const agreeing = (other: FrameResult | null, toleranceMm: number): number | null => {
    if (!other?.ok || other.bar !== bar) return null;
    const c = widthsOf(other.sides);
    const moved = faceCentering(c, bar);
    let points = 0;
    for (const side of apart) {
      const shift = Math.abs(moved[axisOf(side)] - base[axisOf(side)]);
      if (shift > MAX_SCALE_DISAGREEMENT && Math.abs(c[side] - a[side]) > toleranceMm * FLAT_PX_PER_MM) return null;
      points = Math.max(points, shift);
    }
    return points;
  };
  const byQuarter = agreeing(threeQuarter(), MAX_SCALE_DISAGREEMENT_MM);
  const byFine = byQuarter === null ? null : agreeing(double(), MAX_DOUBLE_DISAGREEMENT_MM);
  if (byQuarter === null || byFine === null) return null;
  // The axes the half copy read alike, it still vouches for.
  const byHalf = faceCentering(b, bar);
  const halfAgreement = Math.max(
    ...(["left_right", "top_bottom"] as const)
      .filter((axis) => !apart.some((side) => axisOf(side) === axis))
      .map((axis) => Math.abs(byHalf[axis] - base[axis])),
    0,
  );
  return { ok: true, widths: a, bar, centering: base, agreement: Math.max(byQuarter, byFine, halfAgreement) };
}

/**
 * The cut's two readings (refine-outline.ts: the crossings' line and the median profile's, each
 * an independent placement of the card's edge) may put the centering at most this many points
 * apart. The line taken is one of them; the other is as good a reading, and where they disagree
 * the truth is not known to better than their spread. Further apart, the side's cut is placed
 * midway between them (cutBetweenReadings), and the centering must then lie within this many
 * points of either: readings up to about twice this apart are graded so. The three real photos
 * with a side read two ways 1.0–1.3 points apart (two yellow borders on a white wall of nearly
 * their luma, a black border beside its shadow) are graded so within 0.6 points of a hand reading
 * of luma profiles on the rectified card; the drawn yellow border on gravel whose readings lie
 * 2.3 points apart, the truth at one of them, is still refused.
 */
export const MAX_CUT_READINGS_APART = 1;

/**
 * How far (centering points) the centering moves when one side's cut is placed at its other
 * reading instead (`gapsMm`: per side, the other reading's offset inward from the line taken, or
 * null where there is none), the side that moves it most, and by how many mm.
 */
export function cutReadingsSpread(
  widths: Widths,
  bar: Bar,
  gapsMm: Record<Side, number | null>,
): { points: number; side: Side; mm: number } | null {
  const base = faceCentering(widths, bar);
  let worst: { points: number; side: Side; mm: number } | null = null;
  for (const side of ["left", "right", "top", "bottom"] as const) {
    const gap = gapsMm[side];
    if (gap === null || side === bar) continue;
    const points = pointsMoved(widths, bar, base, side, gap);
    if (!worst || points > worst.points) worst = { points, side, mm: Math.abs(gap) };
  }
  return worst;
}

/** How far (points, on the axis that moves more) `base` moves with `side`'s cut `gapMm` further in. */
function pointsMoved(widths: Widths, bar: Bar, base: FaceCentering, side: Side, gapMm: number): number {
  const moved = faceCentering({ ...widths, [side]: widths[side] - gapMm * FLAT_PX_PER_MM }, bar);
  return Math.max(Math.abs(moved.left_right - base.left_right), Math.abs(moved.top_bottom - base.top_bottom));
}

/**
 * Each side whose two readings of its cut (`gapsMm`, as cutReadingsSpread) put the centering more
 * than MAX_CUT_READINGS_APART points apart, its cut placed midway between them: the widths so, and
 * the gaps left from the new place to either reading (half the side's gap). Where the truth lies
 * at one of the two readings, as on the drawn cards whose readings split, the centering is then
 * within half their spread of it. The evidence gives the two readings' whole spread as the
 * centering's agreement (the independent estimates disagree by that much, wherever the cut is
 * placed). The evidence's outline stays on the line taken, and its frame
 * line on that side is drawn at the width so placed: half the gap (a tenth of a millimetre at most
 * on borders up to 5 mm) from where the frame was read.
 */
export function cutBetweenReadings(
  widths: Widths,
  bar: Bar,
  gapsMm: Record<Side, number | null>,
): { widths: Widths; gapsMm: Record<Side, number | null> } {
  const base = faceCentering(widths, bar);
  const between = { ...widths };
  const remaining = { ...gapsMm };
  for (const side of ["left", "right", "top", "bottom"] as const) {
    const gap = gapsMm[side];
    if (gap === null || side === bar || pointsMoved(widths, bar, base, side, gap) <= MAX_CUT_READINGS_APART) continue;
    between[side] = widths[side] - (gap / 2) * FLAT_PX_PER_MM;
    remaining[side] = gap / 2;
  }
  return { widths: between, gapsMm: remaining };
}

/**
 * Predicted 1 σ uncertainty of the centering offset, in percentage points: each border's two
 * lines (card edge and frame) are placed to an eighth of the edge's 10–90 % rise (at least 0.25 px),
 * averaged over `profiles` independent profiles, and one point of centering is 1 % of the axis's
 * total border. An axis read past a bar (designedWidths) rests on three borders, one of them
 * alone against the other two's mean, not on two against each other: its offset scatters
 * BAR_SIGMA_FACTOR times as much for the same lines.
 */
export function centeringSigma(
  edgeWidthPx: number,
  profiles: number,
  pxPerMm: number,
  widths: Widths,
  bar: Bar = null,
): number {
  const linePx = Math.max(0.25, edgeWidthPx / 8) / Math.sqrt(Math.max(1, profiles));
  const borderMm = (Math.SQRT2 * linePx) / pxPerMm;
  const axes = designedWidths(widths, bar);
  const totalX = (axes.left + axes.right) / FLAT_PX_PER_MM;
  const totalY = (axes.top + axes.bottom) / FLAT_PX_PER_MM;
  return Math.max((100 * borderMm) / totalX, ((bar ? BAR_SIGMA_FACTOR : 1) * 100 * borderMm) / totalY);
}

/**
 * Two borders against each other: the offset's error is half their two errors' difference over
 * the axis, σ/T for each line's σ on borders of T together. One border against the mean of two
 * others that together are S wide: its own error over S and half theirs, √3 σ/S.
 */
const BAR_SIGMA_FACTOR = Math.sqrt(3);

export const worseSide = (c: FaceCentering) =>
  Math.max(c.left_right, 100 - c.left_right, c.top_bottom, 100 - c.top_bottom);
