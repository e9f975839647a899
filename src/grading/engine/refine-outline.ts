// The card's edges to a fraction of a pixel, once find-card.ts has chosen its outline: ~120
// profiles across each side on the full working image, the colour along each projected onto the
// step between the table's and the card's colours (edges.ts), the 50 % crossing as the edge's
// position, a robust line fit per side, and the corners at the lines' intersections.
// Each side is also read from its median profile over twice the reach (sideFromMedianProfile):
// the first step out of the table's colour (past a shadow or the card's dark edge seen beside it)
// is the cut. That second reading is independent of the first, and
// - where the crossings do not line up (a thin border with art just inside it: each profile's
//   ends are table and art, the border's colour falls near halfway between them, and crossings
//   jump between the cut and the art's edge), it is the side's line;
// - where both readings trace a line, they must agree within MAX_EDGE_DISAGREEMENT at both ends
//   of the side, or the side is refused: a sleeve's edge outside the card's, or a thin border's
//   cut outside the art's edge, leaves two candidate edges, and a guess between them would put
//   a border's width into the centering. Two exceptions, where nothing is guessed: a line of the
//   table along the card (a brick joint, grout, a seam) is a band the median reading steps into
//   first, and read past that band its next step leads into the card's border colour, where it
//   agrees with the crossings; or the band lies against only part of the cut, the table's colour
//   right outside the crossings' line (and the border's right inside) along a fifth of it or
//   more, as neither a sleeve's margin nor the card's own border would. Either way the
//   crossings' line is the cut. A third: the band between the two edges is the table in the
//   card's cast shadow (the table's hue, darker), and read in colour a shadow does not change
//   the cut lies on the inner edge (pastCastShadow).
// What lies along a cut, and how each side is read past it, is in files of its own: the two
// readings of a side and the profiles they share (cut-profiles.ts); bands along the cut, dark,
// light or of another hue (cut-bands.ts); a band between the table and a dark border widening
// along the side (cut-plateau.ts); shadows and lines of the table beside it (cut-shadows.ts); a
// bevelled rim (cut-rim.ts); and a cut that bows (cut-bow.ts).
// The border's colour a side's median reading steps into is compared with the agreeing sides' (or,
// where no side's readings agree, with the one colour all four sides' median readings step into,
// when they do: a thin border all round, art of changing colour just inside it) as they show it
// and as it would show in that side's light (inLightOf: scaled by the ratio of the
// table's colour beside that side to the table's beside them): a yellow border on wood lit from
// one side lies 74 levels (colour distance) from the others' along its far side, where the wood
// is darker by the same ratios.
// The blur is read last, across the refined sides on the card's side of the cut only
// (edges.ts, cardSideRise): a shadow or the card's dark edge lying outside the cut, or a profile
// off centre, would otherwise lengthen it (a 1080p photo of a card on white paper, its edges
// shadowed on three sides, read 1.0 mm of blur across both ends and 0.83 on the card's side).

import {
  bandAtBow,
  bandInside,
  DARK_BAND,
  darkBandBeyondReach,
  greyBorder,
  greyInLightOf,
  HUE_BAND,
  innerPastDarkBand,
  insideColour,
  LIGHT_BAND_MM,
  liesInside,
  MIN_LIGHT_BAND_PX,
  mostShown,
  noneNear,
  outerOf,
  pastBand,
  pastLightBand,
  pastOneWayBands,
  pastPartialBand,
} from "./cut-bands";
import { BOW_SPAN, bowedCut, bowOf } from "./cut-bow";
import { pastPlateauBand } from "./cut-plateau";
import {
  CARD_SHORT_MM,
  dist,
  EDGE_PROFILES,
  inLightOf,
  inwardAtMiddle,
  linesApart,
  MAX_BORDER_DIFFERENCE,
  MAX_EDGE_DISAGREEMENT,
  MIN_CLEAN_CUT,
  MIN_EDGE_COVERAGE,
  profileBase,
  type SideGeometry,
  type SideReadings,
  sideFromMedianProfile,
  type Trace,
  traced,
} from "./cut-profiles";
import { cutBeforeShadowRamp } from "./cut-ramp";
import { ridgeCut } from "./cut-ridge";
import { outerPastRim, rimCuts, rimStepRise } from "./cut-rim";
import {
  cutPastContactShadow,
  pastCastShadow,
  pastSoftShadow,
  pastTableLine,
  pastWideShadow,
  tableBesideCut,
  tableInkOutside,
} from "./cut-shadows";
import { tiltedOntoSteps } from "./cut-tilt";
import { tintOnset } from "./cut-tint";
import { cardSideRise, edgeCrossing, type RgbSampler, rgbSampler } from "./edges";
import { fitLine, intersect, type Line, lineThrough, median, type Point, type Quad } from "./geometry";
import { colourDistance as distance, luma, medianColour, oneBorderInk, type RgbaImage } from "./image";

export interface RefinedEdges {
  /** The card's quadrilateral in photo order (as it appears: top-left, top-right, bottom-right, bottom-left). */
  corners: Quad;
  /** Median contrast across the card's edge, in colour-distance units (0–441). */
  edgeContrast: number;
  /** RMS distance of the refined edge points from their lines, in pixels. */
  edgeResidual: number;
  /** 10–90 % rise of the card's edge, in pixels (blur), read on the card's side of the cut. */
  edgeWidth: number;
}

export type Refined =
  | {
      ok: true;
      outline: RefinedEdges;
      /** Per side in photo order (top, right, bottom, left as they appear): traced cleanly (MIN_CLEAN_CUT). */
      clean: [boolean, boolean, boolean, boolean];
      /**
       * Per side in photo order: how far its cut bows out past its line (the chord between its
       * corners) at its middle, as a share of its length; 0 for a side traced as a line (bowedCut).
       */
      bows: [number, number, number, number];
      /**
       * Per side in photo order: how far (px, inward) the side's other reading lies from the line
       * taken, at the side's middle, where both readings traced it and agree within
       * MAX_EDGE_DISAGREEMENT and the line is one of them as read; null elsewhere (one reading,
       * a band or a rim read past, a bowed side). The spread of two independent placements of
       * the cut, which analyse-face.ts weighs in centering points (MAX_CUT_READINGS_APART).
       */
      gaps: [number | null, number | null, number | null, number | null];
    }
  | { ok: false; reason: string };

const SIDE_NAMES = ["top", "right", "bottom", "left"] as const;

/**
 * A side whose two readings lie further apart than MAX_EDGE_DISAGREEMENT, with no band, shadow or
 * rim told between them, is one edge read twice when they lie within this (mm) and no other side
 * is so read: its crossings' line is taken and the other reading weighed in centering points
 * (`gaps`, MAX_CUT_READINGS_APART in analyse-face.ts), as where they agree within
 * MAX_EDGE_DISAGREEMENT. At 10–16 px per mm, 1.5 px is 0.1–0.15 mm. A sleeve's margin or a
 * holder's well lies round every side, most of a millimetre out on one side at least (a card
 * pushed against one side of a sleeve 64 × 89 mm inside leaves 1 mm at the other): on a real
 * photo of an Alpha Counterspell in a Beckett holder cropped to the card, its right cut shows
 * two edges 1.6 px (about 0.12 mm) apart and its bottom cut 4.0 px. On a real photo of a
 * silver-bordered Pokémon card on a dark playmat (rkrk-3.jpg, 4000 × 3000), its top cut's soft
 * rise, read 1.6 px apart, was the only side refused: 48.8 / 55.3, against 49.3 / 55.5 by hand.
 */
const ONE_EDGE_MM = 0.2;

/**
 * A side its profiles cannot trace is looked for again this many times as far either side of its
 * line (reseated).
 */
const RESEAT_REACH = 3;

/** How many times the side is reseated before the refinement gives up on the outline. */
const RESEAT_ATTEMPTS = 3;

/**
 * A black border's cut read before a hard shadow's ramp (cut-ramp.ts) is taken only when it lies
 * at least this far (mm) inside the readings' line at both of the side's ends.
 */
const MIN_RAMP_INSIDE_MM = 0.5;

/** How far (px) along the inward normal (nx, ny) from `from` the line lies. */
function offsetAlong(line: Line, from: Point, nx: number, ny: number): number {
  return (line.c - line.a * from.x - line.b * from.y) / (line.a * nx + line.b * ny);
}

/** A light line along this many of the card's sides, or more, is its cut's edge (cut-ridge.ts). */
const MIN_RIDGE_SIDES = 3;

/**
 * A side is refused where its border's hue begins this far inside its line (cut-tint.ts), in mm
 * and at least in pixels. Over 815 real photos and copies of them (the 185 raw photos on a table,
 * JPEG 60, noise, blur at two strengths, 1,200 px long, sharpened, a warm cast), a side of a
 * graded photo whose border shows a hue had it at most 0.48 mm in, but one: the 1,200 px copy of a
 * navy Pokémon back, 0.93 mm in (4.3 px at 4.6 px per mm), whose bottom cut had been put on the
 * outer half of its soft shadow, 5.6 centering points off the photo's own reading (4.21 mm for
 * 3.38). The hue's halfway point lies about 0.8 px inside a sharp cut (chroma read at half
 * resolution by JPEG), hence the floor in pixels. Only where the lightness between the line and the
 * hue ramps gradually from the table's to the border's (a shadow blurred into the cut): another
 * card, black, beneath a yellow one is read past later (analyse-face.ts), as drawn tests show, and
 * a sharp cut with a grey rim inside it (the card's own edge) is the cut.
 */
const MIN_TINT_LAG_MM = 0.6;

/** ...and at least this many pixels. */
const MIN_TINT_LAG_PX = 2.5;

/**
 * Sub-pixel sides on the full working image; `quad` in photo order and full-image pixels.
 * The outline found on the coarse image may lay a side across the card's edge at a slant, on its
 * cut at one end and a rim's inner step or a shadow's edge at the other, further apart than the
 * profiles reach (a Yu-Gi-Oh! card's dark rim, 1.5–2 mm wide, on three real photos): every
 * profile then finds a step, but they drift along the side with its line and jump back, and none
 * traces it. Such a side is reseated: read RESEAT_REACH times as far, the line half its profiles
 * or more lie on becomes its line, and the whole outline is refined again. Nothing else changes:
 * every check the outline passes, it passes as refined from its new line.
 */
export function refineOutline(image: RgbaImage, quad: Quad, halfLength: number): Refined {
  const first = refineOnce(image, quad, halfLength);
  if (first.ok || first.untraced === undefined) return first;
  const colourAt = rgbSampler(image);
  const side = first.untraced;
  let current = quad;
  let latest: Extract<Once, { ok: false }> = first;
  for (let attempt = 0; attempt < RESEAT_ATTEMPTS; attempt++) {
    const moved = reseated(colourAt, current, side, halfLength);
    if (!moved) break;
    const again = refineOnce(image, moved, halfLength);
    // Only the side that could not be traced is moved: another side left untraced is refused
    // as it was (moved in turn, a side of a silver border on white paper went onto the frame's
    // line, a standard card then read as the small format), unless it is a tilted side (below).
    if (again.ok || again.untraced === undefined) return again;
    current = moved;
    latest = again;
    if (again.untraced !== side) break;
  }
  // A side still untraced may lie at a tilt to the cut (cut-tilt.ts): each such side is swung
  // once onto the line through the sharp steps across it, pivoting on one of its ends, and the
  // outline refined again. A frame's edge lies a border's width inside the cut at both ends, so
  // no side is moved onto it so.
  const swung = new Set<number>();
  while (latest.untraced !== undefined && !swung.has(latest.untraced)) {
    const k = latest.untraced;
    swung.add(k);
    const p = current[k] as Point;
    const q = current[(k + 1) % 4] as Point;
    const { nx, ny } = inwardNormal(current, p, q);
    const moved = tiltedOntoSteps(colourAt, current, k, nx, ny, halfLength);
    if (!moved) break;
    const again = refineOnce(image, moved, halfLength);
    if (again.ok || again.untraced === undefined) return again;
    current = moved;
    latest = again;
  }
  return { ok: false, reason: first.reason };
}

/**
 * `quad` with side k moved onto the line that the most of its profiles, read RESEAT_REACH times as
 * far either side, place the edge within 1.5 px of, when at least half of them do; null otherwise.
 */
function reseated(colourAt: RgbSampler, quad: Quad, k: number, halfLength: number): Quad | null {
  const p = quad[k] as Point;
  const q = quad[(k + 1) % 4] as Point;
  const { nx, ny } = inwardNormal(quad, p, q);
  const points: Point[] = [];
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const base = profileBase(p, q, s);
    const crossing = edgeCrossing(colourAt, base, nx, ny, RESEAT_REACH * halfLength);
    if (crossing) points.push({ x: base.x + nx * crossing.t, y: base.y + ny * crossing.t });
  }
  const trace = consensusLine(points);
  if (!trace || trace.close.length < MIN_EDGE_COVERAGE * EDGE_PROFILES) return null;
  const corners = quad.slice() as Point[];
  corners[k] = intersect(lineThrough(quad[(k + 3) % 4] as Point, p), trace.line);
  corners[(k + 1) % 4] = intersect(trace.line, lineThrough(q, quad[(k + 2) % 4] as Point));
  return corners.every((c) => Number.isFinite(c.x) && Number.isFinite(c.y)) ? (corners as unknown as Quad) : null;
}

/**
 * The line through two of the points (at least 8 profiles apart) with the most points within
 * 1.5 px of it, refitted to those: a least-squares fit through all of them lies between two edges
 * when a side's profiles found one along part of it and another along the rest.
 */
function consensusLine(points: Point[]): Trace | null {
  let best: Point[] = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 8; j < points.length; j++) {
      const line = lineThrough(points[i] as Point, points[j] as Point);
      const near = points.filter((s) => Math.abs(line.a * s.x + line.b * s.y - line.c) <= 1.5);
      if (near.length > best.length) best = near;
    }
  }
  const line = fitLine(best);
  if (!line) return null;
  return { line, close: points.filter((s) => Math.abs(line.a * s.x + line.b * s.y - line.c) <= 1.5) };
}

/** The unit normal of the side from p to q pointing into `quad`. */
function inwardNormal(quad: Quad, p: Point, q: Point): { nx: number; ny: number } {
  const length = Math.hypot(q.x - p.x, q.y - p.y);
  const center = { x: quad.reduce((s, c) => s + c.x, 0) / 4, y: quad.reduce((s, c) => s + c.y, 0) / 4 };
  const nx = -(q.y - p.y) / length;
  const ny = (q.x - p.x) / length;
  const inward = nx * (center.x - (p.x + q.x) / 2) + ny * (center.y - (p.y + q.y) / 2) >= 0;
  return inward ? { nx, ny } : { nx: -nx, ny: -ny };
}

/** A refinement's refusal for a side no reading traced names that side (refineOutline reseats it). */
type Once = Extract<Refined, { ok: true }> | { ok: false; reason: string; untraced?: number };

function refineOnce(image: RgbaImage, quad: Quad, halfLength: number): Once {
  const colourAt = rgbSampler(image);
  const contrasts: number[] = [];
  const widths: number[] = [];
  const sides: SideReadings[] = [];
  const bows: number[] = [];
  // A light line between a dark table and a dark border (cut-ridge.ts) along three sides or all
  // four is the cut's own edge (whitened, or the paper seen at the cut from above): its outer edge
  // is the cut. Both colour readings put the cut halfway from the table's colour to the border's,
  // on the line's inner flank, 0.2 mm inside where the line is that wide. Along one or two sides
  // only, it is the card's edge seen beside its face at a slant, read past as a band (below).
  const ridges = [0, 1, 2, 3].map((k) => {
    const p = quad[k] as Point;
    const q = quad[(k + 1) % 4] as Point;
    return ridgeCut(colourAt, { p, q, ...inwardNormal(quad, p, q) }, halfLength);
  });
  const ridgeAllRound = ridges.filter((ridge) => ridge !== null).length >= MIN_RIDGE_SIDES;
  // A hard shadow lightening outward beside a black border (cut-ramp.ts): the cut is the step out
  // of the black, wherever the readings put it in the shadow's ramp.
  const cardPxPerMm = Math.min(dist(quad[0], quad[1]), dist(quad[1], quad[2])) / CARD_SHORT_MM;
  const ramps: (Trace | null)[] = [null, null, null, null];
  for (let k = 0; k < 4; k++) {
    const p = quad[k] as Point;
    const q = quad[(k + 1) % 4] as Point;
    const { nx, ny } = inwardNormal(quad, p, q);
    const samples: Point[] = [];
    for (let s = 0; s < EDGE_PROFILES; s++) {
      const base = profileBase(p, q, s);
      const crossing = edgeCrossing(colourAt, base, nx, ny, halfLength);
      if (!crossing) continue;
      samples.push({ x: base.x + nx * crossing.t, y: base.y + ny * crossing.t });
      contrasts.push(crossing.contrast);
      widths.push(crossing.width);
    }
    let crossings = traced(samples);
    const again = sideFromMedianProfile(colourAt, p, q, nx, ny, 2 * halfLength);
    let profile = traced(again.points);
    if (crossings && again.card && !again.shadowAsCard) {
      // Both readings took a contact shadow in (or the crossings did, and the median profile
      // traced no line): the cut read past it is the side.
      const reading = { crossings, profile, card: again.card, medianProfile: again.profile };
      const cut = cutPastContactShadow(colourAt, { p, q, nx, ny }, 2 * halfLength, reading);
      if (cut) {
        crossings = cut;
        profile = cut;
      }
    }
    const ridge = ridgeAllRound ? ridges[k] : null;
    if (ridge) {
      crossings = ridge;
      profile = ridge;
    }
    const read = crossings ?? profile;
    const found = ridge || !read ? null : cutBeforeShadowRamp(colourAt, { p, q, nx, ny }, cardPxPerMm);
    // Only where the readings lie out in the shadow, its ramp's width at least inside them: a cut
    // they place on the step already is theirs to read.
    const inside = (line: Line) => Math.min(offsetAlong(line, p, nx, ny), offsetAlong(line, q, nx, ny));
    const ramp =
      found && read && inside(found.line) - inside(read.line) >= MIN_RAMP_INSIDE_MM * cardPxPerMm ? found : null;
    ramps[k] = ramp;
    if (ramp) {
      crossings = ramp;
      profile = ramp;
    }
    // Traced along a curve bowing out past its chord by a little (the card does not lie flat, or
    // the lens bends its edge): the side is measured from the curve (bowedCut), whether or not a
    // line also passes near enough of its points, since two lines fitted to parts of one curve
    // disagree at the ends.
    // No line may trace the side cleanly, the median profile's included: where it does, the
    // crossings that bow are two edges, not one curve (inside a thin border, the cut along part of
    // the side and the art's edge along the rest, where the border's colour lies short of halfway
    // from the table's to the art's; a parabola passes between them).
    let bowShare = 0;
    const straightCut = profile !== null && profile.close.length >= MIN_CLEAN_CUT * EDGE_PROFILES;
    const curve =
      (straightCut ? null : bowedCut(samples, p, q, nx, ny)) ??
      (!crossings && !profile ? bowedCut(again.points, p, q, nx, ny) : null);
    if (curve) {
      crossings = curve.trace;
      profile = null;
      bowShare = curve.share;
    }
    if (!crossings && !profile) {
      const bow = bowOf(samples, p, q) ?? bowOf(again.points, p, q);
      if (bow !== null) {
        const pxPerMm = Math.min(dist(quad[0], quad[1]), dist(quad[1], quad[2])) / CARD_SHORT_MM;
        return {
          ok: false,
          reason: `the card's ${SIDE_NAMES[k]} edge (as it appears in the photo) is not straight: it bows ${bow.toFixed(1)} px (${(bow / pxPerMm).toFixed(2)} mm) from a straight line over its length, as the edge of a card that does not lie flat (warped or creased) shows, or a lens that bends straight lines near the edge of a photo; lay the card flat, in the middle of the photo`,
        };
      }
      return {
        ok: false,
        reason: `the card's ${SIDE_NAMES[k]} edge (as it appears in the photo) could not be traced along its length`,
        untraced: k,
      };
    }
    const apart = crossings && profile ? linesApart({ p, q, nx, ny }, crossings.line, profile.line) : null;
    bows.push(bowShare);
    sides.push({
      crossings,
      median: profile,
      card: again.card,
      table: again.profile[0] ?? null,
      medianProfile: again.profile,
      apart,
      p,
      q,
      nx,
      ny,
      shadowAsCard: again.shadowAsCard === true,
    });
  }
  // A step into the table in shadow taken for the card's border is dropped (dropShadowSteps).
  const bare = dropShadowSteps(sides);
  if (bare !== null) {
    return {
      ok: false,
      reason: `the card's ${SIDE_NAMES[bare]} edge (as it appears in the photo) could not be traced along its length`,
      untraced: bare,
    };
  }
  // Sides where both readings agree give the colour just inside the cut (the card's border).
  const confirmed = sides.filter((side) => side.apart !== null && side.apart <= MAX_EDGE_DISAGREEMENT && side.card);
  let shownColours = confirmed.map((side) => side.card as number[]);
  let borderColour = confirmed.length > 0 ? medianColour(shownColours) : null;
  // Where the agreeing sides show two inks (a dark band taken in along one cut, the border just
  // inside the others), their median is neither: the border is the colour most sides show just
  // inside their line, when three or four of them show it (mostShown).
  const border = borderColour;
  if (border && confirmed.some((side) => distance(side.card as number[], border) > MAX_BORDER_DIFFERENCE)) {
    const most = mostShown(sides.map(insideColour).filter((colour): colour is number[] => colour !== null));
    if (most) {
      shownColours = most;
      borderColour = medianColour(most);
    }
  }
  // With no side where they agree (a thin border all round, art of changing colour just inside
  // it, so that the crossings jump between the cut and the art's edge on every side), the median
  // readings of all four sides stepping into one colour past the table give it as well.
  const stepInto = sides.map((side) => (side.median ? side.card : null));
  if (borderColour === null && stepInto.every((colour): colour is number[] => colour !== null)) {
    const shared = medianColour(stepInto);
    if (shared && stepInto.every((colour) => distance(colour, shared) <= MAX_BORDER_DIFFERENCE)) {
      shownColours = stepInto;
      borderColour = shared;
    }
  }
  const tableBesideBorder = medianColour(confirmed.flatMap((side) => (side.table ? [side.table] : [])));
  // A side only the crossings traced, whose median profile met no step into the card (a wide soft
  // shadow spreads it): read past a shadow with the border's colour the agreeing sides show.
  for (const [k, side] of sides.entries()) {
    if (!side.crossings || side.median || side.card || !borderColour || bows[k]) continue;
    const reading = { crossings: side.crossings, profile: null, card: borderColour, medianProfile: side.medianProfile };
    const cut = cutPastContactShadow(colourAt, side, 2 * halfLength, reading);
    if (cut) side.crossings = cut;
  }
  // The widest light band read past (LIGHT_BAND_MM), in pixels at the card's scale.
  const shortSide = Math.min(
    ...[0, 1].map((k) => (dist(quad[k], quad[k + 1]) + dist(quad[k + 2], quad[(k + 3) % 4])) / 2),
  );
  const maxLightBand = Math.max(MIN_LIGHT_BAND_PX, (LIGHT_BAND_MM * shortSide) / CARD_SHORT_MM);
  const oneEdgeApart = (ONE_EDGE_MM * shortSide) / CARD_SHORT_MM;
  // One side only: a holder's well or a sleeve lies round every side, and shows along more than one.
  let readTwiceSides = 0;
  const refined: Line[] = [];
  const clean: boolean[] = [];
  /** Per side: its line is one of its two readings as traced (not read past a band, a shadow or a rim). */
  const asRead: boolean[] = [];
  /** Per side: its line is the card's face read past a dark band (pastBand). */
  const pastDarkBand: boolean[] = [];
  /** Per side: the other reading's offset from the line taken (Refined's `gaps`). */
  const gaps: (number | null)[] = [];
  let residualSum = 0;
  let residualCount = 0;
  for (const [k, side] of sides.entries()) {
    // One of the two traced the side (the loop above refused a side neither traced).
    let chosen = (side.crossings ?? side.median) as Trace;
    // Read past a light band or a soft shadow: no band is read past the line again. Nor past a
    // light line read as the cut (cut-ridge.ts): it is the face's own edge, not a paper edge
    // seen beside it.
    const byRidge = (ridgeAllRound && ridges[k] !== null) || ramps[k] !== null;
    let readPast = byRidge;
    // A bowed side's cut is its curve (bowedCut): there is no second reading to weigh it against,
    // and no band is read past it.
    let bowed = (bows[k] ?? 0) > 0;
    // Two readings further apart than MAX_EDGE_DISAGREEMENT, within oneEdgeApart, taken as one edge.
    let readTwice = false;
    if (!bowed && side.apart !== null && side.apart > MAX_EDGE_DISAGREEMENT) {
      // Two edges: the median reading's is the cut when its first step out of the table leads
      // into the colour the agreeing sides show just inside their cut, the card's border (a thin
      // border whose art's edge the crossings followed). Otherwise (a sleeve's margin, table seen
      // through plastic; a shadow not told as one) neither is trusted.
      // The colour is compared as the agreeing sides show it, and as it would show in this side's
      // light: on a real photo of a yellow border on wood lit from one side, the far side's border
      // lies 74 levels (colour distance) from the others', the wood beside it darker by the same
      // ratios.
      const relit =
        borderColour && tableBesideBorder && side.table ? inLightOf(borderColour, tableBesideBorder, side.table) : null;
      const isBorder =
        borderColour !== null &&
        side.card !== null &&
        (distance(side.card, borderColour) <= MAX_BORDER_DIFFERENCE ||
          (relit !== null && distance(side.card, relit) <= MAX_BORDER_DIFFERENCE));
      // Or a line of the table runs along the card (a joint, grout, a seam: a band with the table
      // on both sides): read past it, the median profile's step leads into the border's colour,
      // and there the crossings agree with it. Or the band lies against only part of the cut.
      // But first: the band between them may be the table in the card's shadow (a hard shadow
      // blurred into the median reading's step, whose colour past it is then the border's too):
      // read in colour a shadow does not change, the cut is the inner of the two. (A thin border's
      // band is not: told from the table by its hue, it has no hue of the table's.)
      const pastShadow =
        side.table === null || side.crossings === null || side.median === null
          ? null
          : pastCastShadow(colourAt, side, 2 * halfLength, side.table, borderColour ?? side.card);
      // Or the band between them is the card's bevelled rim (rim.ts), shown along two other
      // sides as well: the cut is at the outer edge.
      const rimOuter = pastShadow
        ? null
        : outerPastRim(colourAt, side, sides, shortSide / CARD_SHORT_MM, median(widths));
      // Or the band between them is dark and of no ink of the card's border, which lies past the
      // inner edge: the card's edge seen beside its face, or its contact shadow.
      const pastDark =
        pastShadow || rimOuter || !borderColour || !side.table
          ? null
          : innerPastDarkBand(side, side.table, borderColour);
      if (pastShadow) {
        chosen = pastShadow;
      } else if (rimOuter) {
        chosen = rimOuter;
      } else if (pastDark) {
        chosen = pastDark;
      } else if (isBorder) {
        chosen = side.median as Trace;
      } else if (
        borderColour !== null &&
        side.crossings !== null &&
        (pastTableLine(colourAt, side, 2 * halfLength, borderColour, side.crossings) ||
          tableBesideCut(colourAt, side, 2 * halfLength, borderColour, side.crossings) ||
          tableInkOutside(colourAt, side, borderColour, side.crossings))
      ) {
        chosen = side.crossings;
      } else {
        // Or the band between them is the card's light edge beside its dark border.
        const outer = outerOf(side, side.crossings, side.median);
        const light =
          side.table && borderColour && outer
            ? pastLightBand(colourAt, side, outer.line, side.table, borderColour, shownColours, maxLightBand)
            : null;
        // Or both lie in a soft shadow's penumbra, outside a narrow dark band with the border
        // past it: the face begins where the band ends.
        const soft =
          light || !side.table || !borderColour
            ? null
            : pastSoftShadow(
                colourAt,
                side,
                2 * halfLength,
                side.table,
                borderColour,
                relit,
                shortSide / CARD_SHORT_MM,
              );
        if (!light && !soft) {
          // Two readings within a fifth of a millimetre, along one side of the card only, are one
          // edge read twice: the crossings' line is taken, and the other reading is weighed in
          // centering points below (`gaps`).
          if (side.apart > oneEdgeApart || !side.crossings || !side.median || readTwiceSides > 0) {
            return {
              ok: false,
              reason: `the card's ${SIDE_NAMES[k]} edge (as it appears in the photo) shows two edges up to ${side.apart.toFixed(1)} px apart (a sleeve's, a shadow's or a thin border's beside the cut), so where the card ends cannot be told`,
            };
          }
          chosen = side.crossings;
          readTwice = true;
          readTwiceSides++;
        } else {
          chosen = (light ?? soft) as Trace;
          readPast = true;
        }
      }
    }
    // A bowed side's curve may be a band's outer edge along part of it and the cut along the rest
    // (a parabola passes between two edges as it does along one bent cut): no band is read past a
    // curve, so where one lies along it (bandAtBow) the side is refused, unless the band is dark
    // and the face past it traces a straight line (pastBand): the card lies flat, and its edge in
    // shade and its shadow, wider where it lifts, bowed the readings. On a real photo of a navy
    // Pokémon back, a brown-black band 0.4–0.9 mm wide lies along its bottom cut; read as a curve
    // through the band's outer edge, the bottom border took it in (6 centering points).
    if (bowed && side.table && borderColour) {
      const bowPx = (bows[k] ?? 0) * BOW_SPAN * dist(side.p, side.q);
      const band = bandAtBow(colourAt, side, chosen.line, bowPx, side.table, borderColour, shownColours, halfLength);
      const bowReach = 2 * halfLength;
      let face: Trace | null = null;
      if (band?.dark) {
        // The face is told past the band by this side's border as it shows past it (bandInside):
        // in the card's shade it may be darker than the other sides show it.
        const past = bandInside(side, chosen.line, side.table, borderColour, shownColours, DARK_BAND, bowReach, true);
        face = pastBand(colourAt, side, chosen.line, bowReach, side.table, past?.border ?? borderColour, DARK_BAND);
      }
      if (face) {
        chosen = face;
        bowed = false;
        bows[k] = 0;
        readPast = true;
        pastDarkBand[k] = true;
      } else if (band) {
        return {
          ok: false,
          reason: `the card's ${SIDE_NAMES[k]} edge (as it appears in the photo) bows from a straight line and has a band along it (${band.text}: the card's edge seen beside its face, or a shadow), so whether the curve is the cut or the band's edge cannot be told`,
        };
      }
    }
    // A dark band just inside the line taken (the card's dark edge or a shadow that the colour
    // readings took for card): the card's face begins where the band ends. Where none moves the
    // line, a light band beside a dark border (the card's paper edge) may: the face begins past it.
    // A band wider than that reads (its border, sampled 4.5–6.5 px in, is then the band itself, or
    // the band blurred into the border: not the border the agreeing sides show, nor any colour one
    // of them shows, where the band lies along some of them; nor of the border's ink, where both
    // are dark: a brown-black band beside a navy border lies 56 levels from it) is looked for as
    // far in as the readings reach, running in from the line unbroken.
    const readsBand = !readPast && !bowed;
    const narrow =
      readsBand && side.table && borderColour
        ? bandInside(side, chosen.line, side.table, borderColour, shownColours, DARK_BAND)
        : null;
    const wide =
      readsBand &&
      side.table &&
      borderColour &&
      (narrow === null ||
        (!narrow.moved &&
          (noneNear(narrow.border, [borderColour]) ||
            noneNear(narrow.border, shownColours) ||
            !oneBorderInk(narrow.border, borderColour, luma(side.table)))))
        ? bandInside(side, chosen.line, side.table, borderColour, shownColours, DARK_BAND, halfLength, true)
        : null;
    const band = wide?.moved ? wide : narrow;
    if (side.table && band?.moved) {
      // A wide band's face is looked for as far in as the median reading reached.
      const faceReach = band === wide ? 2 * halfLength : halfLength;
      // Or the band, seen at the side's middle, lies along part of it only: the cut is read past it
      // where it lies and on the line taken elsewhere.
      const face =
        pastBand(colourAt, side, chosen.line, faceReach, side.table, band.border, DARK_BAND) ??
        pastPartialBand(colourAt, side, chosen, faceReach, side.table, band.border);
      if (!face) {
        return {
          ok: false,
          reason: `the card's ${SIDE_NAMES[k]} edge (as it appears in the photo) has a dark band along it (the card's edge seen beside its face, or a shadow) whose inner edge could not be traced, so where the card's face ends cannot be told`,
        };
      }
      chosen = face;
      pastDarkBand[k] = true;
    } else if (side.table && borderColour && !readPast && !bowed) {
      // A light band at the line; or, with no dark band at the line on the median profile but on
      // some profiles, a dark band along part of the side, the line taken between its outer edge
      // and the cut.
      const light = pastLightBand(colourAt, side, chosen.line, side.table, borderColour, shownColours, maxLightBand);
      const hue = light
        ? null
        : bandInside(side, chosen.line, side.table, borderColour, shownColours, HUE_BAND, halfLength, true);
      const pastHue =
        hue?.moved && (greyBorder(hue.border) || greyInLightOf(hue.border, side.table))
          ? pastBand(colourAt, side, chosen.line, 2 * halfLength, side.table, hue.border, HUE_BAND)
          : null;
      chosen =
        light ??
        pastHue ??
        (band ? pastPartialBand(colourAt, side, chosen, halfLength, side.table, band.border) : null) ??
        chosen;
    }
    // Read as traced, the line may tilt between a band's outer edge and the cut (cut-plateau.ts).
    if ((chosen === side.crossings || chosen === side.median) && !bowed && !byRidge && side.table && borderColour) {
      const plateau = pastPlateauBand(
        colourAt,
        side,
        chosen.line,
        2 * halfLength,
        side.table,
        borderColour,
        shortSide / CARD_SHORT_MM,
      );
      // The line as read tilts between the band's outer edge and the cut, inside the cut at the end
      // where the band is narrowest by up to half its widest.
      const outward = plateau ? 1 + Math.max(...plateau.widths) / 2 : 0;
      if (plateau && liesInside(side, chosen.line, plateau.trace.line, 2 * halfLength, outward)) chosen = plateau.trace;
    }
    for (const s of chosen.close) {
      const r = chosen.line.a * s.x + chosen.line.b * s.y - chosen.line.c;
      residualSum += r * r;
      residualCount++;
    }
    refined.push(chosen.line);
    clean.push(chosen.close.length >= MIN_CLEAN_CUT * EDGE_PROFILES);
    asRead.push(chosen === side.crossings || chosen === side.median);
    const other = chosen === side.crossings ? side.median : chosen === side.median ? side.crossings : null;
    gaps.push(
      other && !bowed && side.apart !== null && (side.apart <= MAX_EDGE_DISAGREEMENT || readTwice)
        ? inwardAtMiddle(side, other.line) - inwardAtMiddle(side, chosen.line)
        : null,
    );
  }
  // A dark band wider than the readings reach, the card's border past it (a soft shadow cast on
  // the table, taken in by the outline): the side lies on the band's outer edge. When the band is
  // a penumbra beginning outside the line and the card's face rises sharply out of it, the face
  // is the side (pastWideShadow); otherwise the side is refused.
  for (const [k, side] of sides.entries()) {
    const line = refined[k];
    const band =
      asRead[k] && line && !bows[k]
        ? darkBandBeyondReach(colourAt, side, line, sides, shortSide / CARD_SHORT_MM, 2 * halfLength)
        : null;
    const face = band && line && side.table ? pastWideShadow(colourAt, side, line, band, side.table) : null;
    if (face) {
      refined[k] = face.line;
      pastDarkBand[k] = true;
      asRead[k] = false;
      clean[k] = face.close.length >= MIN_CLEAN_CUT * EDGE_PROFILES;
      gaps[k] = null;
    } else if (band !== null) {
      return {
        ok: false,
        reason: `the card's ${SIDE_NAMES[k]} edge (as it appears in the photo) has a dark band along it, ${band.mm.toFixed(1)} mm wide, with the colour the other sides show just inside their cut past it (a shadow cast on the background, or the card's edge seen beside its face): the edge found is the band's outer one, and where the card ends cannot be told`,
      };
    }
  }
  // A dark band along one side, or two adjacent ones, and not along the opposite ones: the face
  // past it is the side (pastOneWayBands).
  if (borderColour) {
    const faces = pastOneWayBands(
      colourAt,
      sides,
      refined,
      asRead,
      pastDarkBand,
      bows,
      borderColour,
      shownColours,
      halfLength,
    );
    for (const [k, face] of faces.entries()) {
      if (!face) continue;
      refined[k] = face.line;
      pastDarkBand[k] = true;
      asRead[k] = false;
      clean[k] = face.close.length >= MIN_CLEAN_CUT * EDGE_PROFILES;
      gaps[k] = null;
    }
  }
  // The border's hue must begin at the line (cut-tint.ts): where it begins further in, the line
  // lies on a shadow or a band of the table's hue beside the cut, which lightness alone took in.
  const pxPerMm = shortSide / CARD_SHORT_MM;
  for (const [k, side] of sides.entries()) {
    const line = refined[k];
    if (!borderColour || !side.table || !line || bows[k]) continue;
    const onset = tintOnset(colourAt, side, line, side.table, borderColour, 2 * halfLength);
    if (onset !== null && onset >= Math.max(MIN_TINT_LAG_PX, MIN_TINT_LAG_MM * pxPerMm)) {
      return {
        ok: false,
        reason: `the card's ${SIDE_NAMES[k]} edge (as it appears in the photo) is found ${(onset / pxPerMm).toFixed(1)} mm outside where its border's hue begins: a shadow or a band of the background's hue lies along the cut and blurs into it, so where the card ends cannot be told; photograph the card larger in the frame, lit from above`,
      };
    }
  }
  // A card with a bevelled rim all round: each cut where the colour changes fastest (rimCuts).
  const rimmed = rimCuts(colourAt, sides, refined, shortSide / CARD_SHORT_MM, median(widths), pastDarkBand);
  const [t, r, b, l] = (rimmed ?? refined) as [Line, Line, Line, Line];
  const corners: Quad = [intersect(l, t), intersect(t, r), intersect(r, b), intersect(b, l)];
  if (corners.some((c) => !Number.isFinite(c.x) || !Number.isFinite(c.y))) {
    return { ok: false, reason: "the card's edges do not form a rectangle" };
  }
  return {
    ok: true,
    clean: clean as [boolean, boolean, boolean, boolean],
    bows: (rimmed ? [0, 0, 0, 0] : bows) as [number, number, number, number],
    gaps: (rimmed ? [null, null, null, null] : gaps) as [number | null, number | null, number | null, number | null],
    outline: {
      corners,
      edgeContrast: median(contrasts),
      edgeResidual: Math.sqrt(residualSum / Math.max(1, residualCount)),
      edgeWidth:
        (rimmed && rimStepRise(colourAt, sides, rimmed, shortSide / CARD_SHORT_MM, median(widths))) ??
        blurAcross(colourAt, corners, sides, halfLength) ??
        median(widths),
    },
  };
}

/**
 * A step into the table in shadow taken for the card's border (sideFromMedianProfile) is a
 * shadow after all where the sides read otherwise show a border of another colour just inside
 * their cut (a yellow card's soft shadow on white paper, wider than the reading's reach): that
 * side's median reading is dropped, as if it had met no step into the card. Unless more sides
 * read the table in shadow, all in one colour, than read one other colour: a silver border on
 * off-white paper reads so along the sides whose two readings agree, and a single other side
 * whose median reading stepped into a dark band along its cut (a contact shadow of a warmer hue
 * than the table's, on a real photo) is the odd one, not the border.
 * A side the crossings did not trace has then no reading left: its index is returned (it is
 * untraced: refineOutline reads it again from a reseated line, or refuses); null otherwise.
 */
export function dropShadowSteps(sides: SideReadings[]): number | null {
  const agreed = (side: SideReadings) =>
    side.apart !== null && side.apart <= MAX_EDGE_DISAGREEMENT && side.card !== null;
  const readOtherwise = sides.filter((side) => agreed(side) && !side.shadowAsCard);
  const otherwiseShown = medianColour(readOtherwise.map((side) => side.card as number[]));
  const readAsShadow = sides.filter((side) => agreed(side) && side.shadowAsCard);
  const shadowShown = medianColour(readAsShadow.map((side) => side.card as number[]));
  const showing = (group: SideReadings[], shown: number[] | null) =>
    shown ? group.filter((side) => distance(side.card as number[], shown) <= MAX_BORDER_DIFFERENCE).length : 0;
  const shadowIsBorder =
    readAsShadow.length >= 2 &&
    showing(readAsShadow, shadowShown) === readAsShadow.length &&
    readAsShadow.length > showing(readOtherwise, otherwiseShown);
  for (const [k, side] of sides.entries()) {
    if (shadowIsBorder || !side.shadowAsCard || !side.card || !otherwiseShown) continue;
    if (distance(side.card, otherwiseShown) <= MAX_BORDER_DIFFERENCE) continue;
    if (!side.crossings) return k;
    side.median = null;
    side.card = null;
    side.apart = null;
  }
  return null;
}

/**
 * The blur: the median rise of the card's edge read on its card side (edges.ts, cardSideRise)
 * across the refined sides, EDGE_PROFILES profiles each, centred on the sides' lines. Null when
 * fewer than a quarter of the profiles show a rise (the caller falls back on the rise between the
 * first reading's profile ends).
 */
function blurAcross(colourAt: RgbSampler, corners: Quad, sides: SideGeometry[], halfLength: number): number | null {
  const rises: number[] = [];
  for (let k = 0; k < 4; k++) {
    const p = corners[k] as Point;
    const q = corners[(k + 1) % 4] as Point;
    const { nx, ny } = sides[k] as SideGeometry;
    for (let s = 0; s < EDGE_PROFILES; s++) {
      const rise = cardSideRise(colourAt, profileBase(p, q, s), nx, ny, halfLength);
      if (rise !== null) rises.push(rise);
    }
  }
  return rises.length >= EDGE_PROFILES ? median(rises) : null;
}
