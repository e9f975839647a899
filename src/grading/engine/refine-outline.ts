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
// The border's colour a side's median reading steps into is compared with the agreeing sides' (or,
// where no side's readings agree, with the one colour all four sides' median readings step into,
// when they do: a thin border all round, art of changing colour just inside it) as they show it
// and as it would show in that side's light (inLightOf: scaled by the ratio of the
// table's colour beside that side to the table's beside them): a yellow border on wood lit from
// one side lies 74 levels (colour distance) from the others' along its far side, where the wood
// is darker by the same ratios.
// A dark band wider than both readings reach, lying inside a side's line (a soft shadow cast on
// the table, 2–2.5 mm on real photos, that the outline found took in): the side's median reading
// steps into a colour of another ink than the other sides show past their cut, darker than it
// and the table, and read on inward that colour comes back past the band. The side lies on the
// band's outer edge and is refused, naming the band (darkBandBeyondReach).
// A hard shadow against the cut, blurred into one ramp with it, fools both readings alike: where
// they agree but a band darker than both the table and the card lies outside the cut, the side is
// read a third way, in colour a shadow does not change (cutPastContactShadow). So is a wider, soft
// one that both readings took in (or the crossings did, and the median profile met no step into
// the card, the border's colour then taken from the sides that agree), when what lies between
// their line and the cut so read is the table in shadow.
// A band darker than the table and the border lying at the line a side was given (the card's
// dark core seen along its cut, or a shadow of another hue than the table's) is read as card by
// both colour readings, which project it onto the step from the table's colour to the border's:
// a brown band beside a yellow border on white paper lies 83 % of the way to the border, a
// grey-brown one beside a red border on beige 87 %. The side's line is then the band's outer edge
// or lies in it, up to 3.95 px outside the cut on drawn photos; the face begins where the colour
// comes back from the band to the border's (isDarkBand, bandInside, pastBand). A band wider than
// the 2.5 px first read (its colour is then what that reading takes for the border) is read again
// as far in as the readings reach, taken only where it runs in from the line unbroken (a dark
// line printed inside a light border has border between it and the cut). A band along
// part of a side only splits the profiles between its outer edge and the cut, and the line fitted
// through both lies between them: each profile with the band is read past it (pastPartialBand).
// Where the readings reach into such a band on one side and past it on the other, they find two
// edges with the band between them; when it is dark, of no ink of the border, and the border's
// colour lies past the inner edge, the inner edge is the cut (innerPastDarkBand).
// Where the two readings find two edges in the penumbra of a soft shadow cast beside a narrow
// dark band along the cut (the card's edge, its contact shadow), the face begins where the colour
// rises out of the band into the border's: the penumbra darkens the table at least three times as
// gradually as the face rises (a cut is as sharp as the photo), and the band is at most 1 mm wide
// (pastSoftShadow; a printed rim is wider, and rises into the body's colour, not the border's).
// Beside a dark border the card's light paper edge is such a band too (isLightBand, pastLightBand):
// on green felt beside a black border its grey lies off every blend of the two, and the readings
// put the cut in it, on its inner step short of the middle, or find two edges (a real photo's
// right side 4 px out, its frame then unreadable).
// A card whose border is a bevelled rim (rim.ts: shading steadily darker from the cut to a sharp
// step into the body) shows two edges along a side, the rim's outer and inner: the outer is the
// cut when two other sides show the same rim (outerPastRim). With a rim inside every side's line,
// each cut is where the colour changes fastest (rimCuts: a crossing halfway to the colour further
// in lies in the shading), and the blur is read on the rim's step into the body (rimStepRise).
// The blur is read last, across the refined sides on the card's side of the cut only
// (edges.ts, cardSideRise): a shadow or the card's dark edge lying outside the cut, or a profile
// off centre, would otherwise lengthen it (a 1080p photo of a card on white paper, its edges
// shadowed on three sides, read 1.0 mm of blur across both ends and 0.83 on the card's side).
import { cardSideRise, edgeCrossing, type RgbSampler, rgbSampler } from "./edges";
import {
  fitLine,
  fitParabola,
  intersect,
  type Line,
  lineThrough,
  median,
  type Point,
  type Quad,
  selectKth,
} from "./geometry";
import {
  DARK_HUE_LEVELS,
  colourDistance as distance,
  hueLevels,
  hueTurn,
  luma,
  medianColour,
  type RgbaImage,
  sameInk,
} from "./image";
import { rimLow, rimReach } from "./rim";

/** Profiles read across each side (also the precision estimate's sample count, centering.ts). */
export const EDGE_PROFILES = 120;
/** A refined side must have a crossing near its line on at least this share of its profiles. */
const MIN_EDGE_COVERAGE = 0.5;
/**
 * The two readings of a side may differ by at most this (px) at either end. Over 90 drawn photos
 * they differ by at most 0.3 px at a side's middle wherever a grade came out; on real photos of
 * sleeved cards by 2–10 px.
 */
const MAX_EDGE_DISAGREEMENT = 1.5;
/**
 * Where a side shows two edges, the band between them is the card's own border when its colour is
 * within this RGB distance of the colour the agreeing sides show just inside their cut, as they
 * show it or in the side's own light (inLightOf).
 */
const MAX_BORDER_DIFFERENCE = 30;
/** Share of a side's profiles that must show the table's colour just outside the crossings' line. */
const MIN_TABLE_BESIDE = 0.2;

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

/**
 * A side is traced cleanly when at least this share of its profiles place the edge within 1.5 px
 * of its line (all of them on every side of a real vintage back on white paper; half, the least a
 * side may have, where a side ran off a drawn card's cut at one corner, beside a brick joint).
 */
export const MIN_CLEAN_CUT = 0.9;

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
 * A side its profiles cannot trace is looked for again this many times as far either side of its
 * line (reseated).
 */
const RESEAT_REACH = 3;
/** How many times the side is reseated before the refinement gives up on the outline. */
const RESEAT_ATTEMPTS = 3;

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
  for (let attempt = 0; attempt < RESEAT_ATTEMPTS; attempt++) {
    const moved = reseated(colourAt, current, side, halfLength);
    if (!moved) break;
    current = moved;
    const again = refineOnce(image, current, halfLength);
    // Only the side that could not be traced is moved: another side left untraced is refused
    // as it was (moved in turn, a side of a silver border on white paper went onto the frame's
    // line, a standard card then read as the small format).
    if (again.ok || again.untraced === undefined) return again;
    if (again.untraced !== side) break;
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
  // A step into the table in shadow taken for the card's border (sideFromMedianProfile) is a
  // shadow after all where the sides read otherwise show a border of another colour just inside
  // their cut (a yellow card's soft shadow on white paper, wider than the reading's reach): that
  // side's median reading is dropped, as if it had met no step into the card. Unless more sides
  // read the table in shadow, all in one colour, than read one other colour: a silver border on
  // off-white paper reads so along the sides whose two readings agree, and a single other side
  // whose median reading stepped into a dark band along its cut (a contact shadow of a warmer hue
  // than the table's, on a real photo) is the odd one, not the border.
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
  for (const side of sides) {
    if (shadowIsBorder || !side.shadowAsCard || !side.card || !otherwiseShown) continue;
    if (distance(side.card, otherwiseShown) <= MAX_BORDER_DIFFERENCE) continue;
    side.median = null;
    side.card = null;
    side.apart = null;
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
    // Read past a light band or a soft shadow: no band is read past the line again.
    let readPast = false;
    // A bowed side's cut is its curve (bowedCut): there is no second reading to weigh it against,
    // and no band is read past it.
    const bowed = (bows[k] ?? 0) > 0;
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
          return {
            ok: false,
            reason: `the card's ${SIDE_NAMES[k]} edge (as it appears in the photo) shows two edges up to ${side.apart.toFixed(1)} px apart (a sleeve's, a shadow's or a thin border's beside the cut), so where the card ends cannot be told`,
          };
        }
        chosen = (light ?? soft) as Trace;
        readPast = true;
      }
    }
    // A bowed side's curve may be a band's outer edge along part of it and the cut along the rest
    // (a parabola passes between two edges as it does along one bent cut): no band is read past a
    // curve, so where one lies along it (bandAtBow) the side is refused.
    if (bowed && side.table && borderColour) {
      const bowPx = (bows[k] ?? 0) * BOW_SPAN * dist(side.p, side.q);
      const band = bandAtBow(colourAt, side, chosen.line, bowPx, side.table, borderColour, shownColours, halfLength);
      if (band) {
        return {
          ok: false,
          reason: `the card's ${SIDE_NAMES[k]} edge (as it appears in the photo) bows from a straight line and has a band along it (${band}: the card's edge seen beside its face, or a shadow), so whether the curve is the cut or the band's edge cannot be told`,
        };
      }
    }
    // A dark band just inside the line taken (the card's dark edge or a shadow that the colour
    // readings took for card): the card's face begins where the band ends. Where none moves the
    // line, a light band beside a dark border (the card's paper edge) may: the face begins past it.
    // A band wider than that reads (its border, sampled 4.5–6.5 px in, is then the band itself, or
    // the band blurred into the border: not the border the agreeing sides show, nor any colour one
    // of them shows, where the band lies along some of them) is looked for as far in as the
    // readings reach, running in from the line unbroken.
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
        (!narrow.moved && (noneNear(narrow.border, [borderColour]) || noneNear(narrow.border, shownColours))))
        ? bandInside(side, chosen.line, side.table, borderColour, shownColours, DARK_BAND, halfLength, true)
        : null;
    const band = wide?.moved ? wide : narrow;
    if (side.table && band?.moved) {
      // A wide band's face is looked for as far in as the median reading reached.
      const faceReach = band === wide ? 2 * halfLength : halfLength;
      const face = pastBand(colourAt, side, chosen.line, faceReach, side.table, band.border, DARK_BAND);
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
        hue?.moved && greyBorder(hue.border)
          ? pastBand(colourAt, side, chosen.line, 2 * halfLength, side.table, hue.border, HUE_BAND)
          : null;
      chosen =
        light ??
        pastHue ??
        (band ? pastPartialBand(colourAt, side, chosen, halfLength, side.table, band.border) : null) ??
        chosen;
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
      other && !bowed && side.apart !== null && side.apart <= MAX_EDGE_DISAGREEMENT
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
 * A colour within this of a border's chromaticity is that border in shade (a shadow dims all three
 * channels alike): a dark band so is the border's outer part in shadow, not a band beside it. The
 * drawn warm dark edge beside a warm grey rim lay 0.05 from the rim's, one ink by sameInk's 0.08.
 */
const MAX_SHADE_CHROMA_DIFFERENCE = 0.03;

/**
 * The faces past dark bands that lie along one side's cut, or two adjacent sides', and not along
 * the opposite sides: darker than both the table and the border past them (SHADOW_BAND), running
 * in from the line (bandInside), as a shadow cast one way or the card's dark edge seen on the
 * sides toward the lens lies, and not of the border's chromaticity (MAX_SHADE_CHROMA_DIFFERENCE:
 * the border's own outer part in shadow). The card's print runs all round it, and a dark line of
 * it at the cut lies along the opposite side as well; one the opposite side does not show (its
 * border read past its cut, no band there) is no part of the face, whose edge past it is the
 * side's (pastBand). Only sides taken as read (`asRead`), not bowed and not read past a band
 * already, are looked at. Drawn: a 0.3 mm warm dark edge outside the right and bottom cuts of a
 * bevelled rim of a warm grey (one ink with it by sameInk's measure, so not DARK_BAND) was
 * measured to its outer edge, 4.7 centering points off; read past, 1.2. Per side, the face's line
 * or null.
 */
function pastOneWayBands(
  colourAt: RgbSampler,
  sides: SideReadings[],
  lines: Line[],
  asRead: readonly boolean[],
  pastDarkBand: readonly boolean[],
  bows: readonly number[],
  border: number[],
  shown: number[][],
  halfLength: number,
): (Trace | null)[] {
  const readings = sides.map((side, k) =>
    side.table && asRead[k] && !pastDarkBand[k] && !bows[k]
      ? bandInside(side, lines[k] as Line, side.table, border, shown, SHADOW_BAND, 2.5, true)
      : null,
  );
  const banded = readings.flatMap((reading, k) => (reading?.moved ? [k] : []));
  const [first = 0, second = 0] = banded;
  const oneWay = banded.length === 1 || (banded.length === 2 && (second - first) % 2 === 1);
  return sides.map((side, k) => {
    const reading = readings[k];
    const opposite = readings[(k + 2) % 4];
    if (!oneWay || !reading?.moved || !opposite || opposite.moved || !side.table || !reading.colour) return null;
    // The border's own ink in shade (its chromaticity kept) is the border's outer part in shadow.
    if (sameInk(reading.colour, reading.border, MAX_SHADE_CHROMA_DIFFERENCE)) return null;
    return pastBand(colourAt, side, lines[k] as Line, halfLength, side.table, reading.border, SHADOW_BAND);
  });
}

/**
 * The cuts of a card with a bevelled rim (rim.ts) read inward from every side's line (`lines`):
 * on each profile, where the colour changes fastest within RIM_CUT_REACH px of the line (inward
 * no further than halfway to the rim's darkest: past it lies the body's step, a larger change),
 * to a fraction of a pixel. A rim shades on from its lightest at the cut, so the card's colour
 * past the step has no level: a crossing halfway to the colour further in lies in the shading,
 * 0.9 px inside the cut on a card drawn at 6 px per mm and up to 0.2 mm on drawn photos (2
 * centering points on a 1.8 mm rim); the fastest change is the step itself. Each side's line
 * through those points must trace it (MIN_EDGE_COVERAGE within 1.5 px) and lie within the reach
 * of the line it replaces; outside a side read past a dark band (`pastDarkBand`), no further
 * than PAST_BAND_REACH. Null when a side shows no rim, or one is not so traced.
 */
const RIM_CUT_REACH = 3;
/**
 * How far outside a side read past a dark band (the card's dark edge beside its face) the rim's
 * cut is looked for (px): not back across the band, whose step out into the table is the larger
 * change (a drawn rim card with a 0.3 mm dark edge band along two cuts was measured to the band's
 * outer edge, 3–5 points off, stop 79).
 */
const PAST_BAND_REACH = 1;

function rimCuts(
  colourAt: RgbSampler,
  sides: SideGeometry[],
  lines: Line[],
  pxPerMm: number,
  blurPx: number,
  pastDarkBand: readonly boolean[] = [],
): Line[] | null {
  const cuts: Line[] = [];
  for (const [k, side] of sides.entries()) {
    const line = lines[k] as Line;
    const rim = rimInward(colourAt, side, line, pxPerMm, blurPx / pxPerMm);
    if (!rim) return null;
    const inward = Math.min(RIM_CUT_REACH, Math.max(1, rim.low / 2));
    const cut = fastestChange(colourAt, side, line, inward, pastDarkBand[k] ? PAST_BAND_REACH : RIM_CUT_REACH);
    if (!cut) return null;
    cuts.push(cut.line);
  }
  return cuts;
}

/**
 * The line along a side where the colour changes fastest on each profile (0.5 px samples, the
 * change across 1 px, its peak to a fraction of a pixel by a parabola), from `outward` px
 * outside `line` to `inward` px inside it; null when those points trace no line
 * (MIN_EDGE_COVERAGE within 1.5 px) or it lies further than RIM_CUT_REACH from `line`.
 */
function fastestChange(
  colourAt: RgbSampler,
  side: SideGeometry,
  line: Line,
  inward: number,
  outward = RIM_CUT_REACH,
): Trace | null {
  const pixel = new Float64Array(3);
  const points: Point[] = [];
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const base = profileBase(side.p, side.q, s);
    const start = inwardTo(side, line, base);
    const colours: number[][] = [];
    for (let d = -outward - 1; d <= inward + 1; d += 0.5) {
      colourAt(base.x + side.nx * (start + d), base.y + side.ny * (start + d), pixel);
      colours.push([pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0]);
    }
    // The change across each sample (its neighbours 1 px apart), and where it is largest.
    const change = (i: number) => distance(colours[i + 1] as number[], colours[i - 1] as number[]);
    let best = 1;
    for (let i = 2; i < colours.length - 1; i++) if (change(i) > change(best)) best = i;
    if (best < 2 || best > colours.length - 3) continue;
    const [a, b, c] = [change(best - 1), change(best), change(best + 1)];
    const offset = a - 2 * b + c < 0 ? (0.5 * (a - c)) / (a - 2 * b + c) : 0;
    const d = -outward - 1 + (best + offset) * 0.5;
    points.push({ x: base.x + side.nx * (start + d), y: base.y + side.ny * (start + d) });
  }
  const cut = traced(points);
  return cut && linesApart(side, cut.line, line) <= RIM_CUT_REACH ? cut : null;
}

/**
 * The blur of a card with a bevelled rim (rim.ts) on all four sides (read inward from `lines`, the
 * sides taken): the median 10–90 % rise of the step from each rim's darkest into the body, on each
 * side's EDGE_PROFILES profiles (0.5 px apart), where it rises by at least RIM_STEP_MIN_RISE. On
 * the card's side of its cut a rim shades over its whole width, which read as the cut's rise would
 * be a blur of a millimetre or more; the printed step into the body is as sharp as the cut, and
 * the lens blurs both alike. Null when a side shows no rim, or fewer than half the profiles a step.
 */
const RIM_STEP_MIN_RISE = 30;

function rimStepRise(
  colourAt: RgbSampler,
  sides: SideGeometry[],
  lines: Line[],
  pxPerMm: number,
  blurPx: number,
): number | null {
  const rises: number[] = [];
  const pixel = new Float64Array(3);
  let profiles = 0;
  for (const [k, side] of sides.entries()) {
    const cut = lines[k] as Line;
    const rim = rimInward(colourAt, side, cut, pxPerMm, blurPx / pxPerMm);
    if (!rim) return null;
    const from = rim.low - 3;
    const to = rim.low + 3 + Math.ceil(blurPx) + 3;
    for (let s = 0; s < EDGE_PROFILES; s++) {
      profiles++;
      const base = profileBase(side.p, side.q, s);
      const start = inwardTo(side, cut, base);
      const lumas: number[] = [];
      for (let d = from; d <= to; d += 0.5) {
        colourAt(base.x + side.nx * (start + d), base.y + side.ny * (start + d), pixel);
        lumas.push(luma(pixel));
      }
      let lowAt = 0;
      for (let i = 1; i < lumas.length / 2; i++) if ((lumas[i] ?? 0) < (lumas[lowAt] ?? 0)) lowAt = i;
      const lo = lumas[lowAt] ?? 0;
      const hi = Math.max(...lumas.slice(lowAt));
      if (hi - lo < RIM_STEP_MIN_RISE) continue;
      const crossing = (level: number) => {
        for (let i = lowAt + 1; i < lumas.length; i++) {
          const a = lumas[i - 1] ?? 0;
          const b = lumas[i] ?? 0;
          if (a < level && b >= level) return i - 1 + (level - a) / (b - a);
        }
        return null;
      };
      const low10 = crossing(lo + 0.1 * (hi - lo));
      const high90 = crossing(lo + 0.9 * (hi - lo));
      if (low10 !== null && high90 !== null) rises.push((high90 - low10) / 2);
    }
  }
  return rises.length >= profiles / 2 ? median(rises) : null;
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

/**
 * The cut beside a hard shadow lying against it: a band darker than both the table and the card
 * just outside the cut, narrower than the blur can separate, so both readings take the table's
 * side of their step inside the band and place the cut out in it (a 0.6 mm shadow in a softened
 * photo: 1.5 px out, 2.2 centering points). Read again in colour a shadow does not change
 * (shadowFreePoints), the cut comes back: taken when both readings agree, the band is there, and
 * the cut read so lies 0.5–3 px inside theirs. A wider, softer shadow (1–1.5 mm in a softened
 * photo: 6–9 px) is not darker than a yellow border: the cut read so is taken further in (up to
 * the reach), or when only the crossings traced the side (`reading.profile` null), when what lies
 * between is the table in shadow (tableInShadow). Null otherwise, or when the card's colour
 * differs from the table's in brightness only (a black border: no colour tells it from a shadow).
 */
function cutPastContactShadow(
  colourAt: RgbSampler,
  side: SideGeometry,
  reach: number,
  reading: { crossings: Trace; profile: Trace | null; card: number[]; medianProfile: number[][] },
): Trace | null {
  const { crossings, profile, card, medianProfile } = reading;
  if (profile && linesApart(side, crossings.line, profile.line) > MAX_EDGE_DISAGREEMENT) return null;
  const { p, q } = side;
  // The median profile (sideFromMedianProfile, over the same reach) from its outer end, the
  // table's colour, in to the side's line.
  const outside = medianProfile.slice(0, 2 * reach + 1);
  const table = outside[0];
  if (!table) return null;
  const floor = Math.min(luma(table), luma(card)) - Math.max(8, 0.1 * Math.abs(luma(table) - luma(card)));
  const darkBand = outside.some((colour) => luma(colour) < floor);
  const free = traced(shadowFreePoints(colourAt, side, reach, table, card));
  if (!free) return null;
  // How far inside the crossings' line the shadow-free one lies, at both ends of the side.
  const shifts = [p, q].map((end) => inwardTo(side, free.line, end) - inwardTo(side, crossings.line, end));
  if (!shifts.every((shift) => shift >= MIN_SHADOW_SHIFT)) return null;
  // A hard shadow: a band darker than both, the cut at most MAX_SHADOW_SHIFT inside both readings.
  if (darkBand && profile !== null && shifts.every((shift) => shift <= MAX_SHADOW_SHIFT)) return free;
  // A wider or softer one (or one the median profile traced no line through): what lies between
  // must be the table in shadow.
  return shifts.every((shift) => shift <= reach) && tableInShadow(colourAt, side, crossings.line, free.line, table)
    ? free
    : null;
}

/**
 * A side whose two readings found two edges (`side.crossings` and `side.median`, apart by more
 * than MAX_EDGE_DISAGREEMENT), where the band between them is the table in the card's cast
 * shadow (tableInShadow: on a table light enough to show a hue, the same hue as the table, darker),
 * as neither a sleeve's margin (the table seen through plastic, lighter or
 * tinted, or the sleeve's own colour) nor a second card is. Read in colour a shadow does not
 * change (shadowFreePoints), the cut must then lie on the inner of the two edges, within
 * MAX_EDGE_DISAGREEMENT of it at both ends of the side; that line is the side. Null otherwise.
 */
function pastCastShadow(
  colourAt: RgbSampler,
  side: SideReadings,
  reach: number,
  table: number[],
  card: number[] | null,
): Trace | null {
  if (!card || !side.crossings || !side.median) return null;
  const depth = (line: Line) => (inwardTo(side, line, side.p) + inwardTo(side, line, side.q)) / 2;
  const [outer, inner] =
    depth(side.crossings.line) < depth(side.median.line)
      ? [side.crossings, side.median]
      : [side.median, side.crossings];
  const free = traced(shadowFreePoints(colourAt, side, reach, table, card));
  if (!free || linesApart(side, free.line, inner.line) > MAX_EDGE_DISAGREEMENT) return null;
  return tableInShadow(colourAt, side, outer.line, free.line, table) ? free : null;
}

/**
 * The cut of a side whose two readings found two edges, when the band between them is the card's
 * bevelled rim (rim.ts): the cut is read where the colour changes fastest about the outer edge
 * (fastestChange), and from there inward the side's median luma profile is a rim's, darkest where
 * the inner edge lies (the body's step: at most 1 px past the rim's darkest, and at most
 * RIM_INNER_SLACK of the band short of it); two other sides show the same rim inward from their
 * outer edge (its colours at the cut and at its darkest within MAX_BORDER_DIFFERENCE of this
 * one's): a card's rim runs all round it, a shadow cast down and to one side lies along two. The
 * rim's outer colour must stand MIN_RIM_STEP from the table's (the cut is a step out of the table,
 * not a shadow's soft edge). `pxPerMm`: the card's scale; `blurPx`: the edges' rise. Null otherwise.
 */
const RIM_INNER_SLACK = 0.3;
const MIN_RIM_STEP = 30;

function outerPastRim(
  colourAt: RgbSampler,
  side: SideReadings,
  sides: SideReadings[],
  pxPerMm: number,
  blurPx: number,
): Trace | null {
  if (!side.crossings || !side.median || !side.table) return null;
  const depth = (line: Line) => (inwardTo(side, line, side.p) + inwardTo(side, line, side.q)) / 2;
  const [outer, inner] =
    depth(side.crossings.line) < depth(side.median.line)
      ? [side.crossings, side.median]
      : [side.median, side.crossings];
  // The cut read where the colour changes fastest about the outer line (fastestChange): read
  // halfway to the colour further in, the outer line lies in the rim's shading.
  const cut = fastestChange(colourAt, side, outer.line, (depth(inner.line) - depth(outer.line)) / 2);
  if (!cut) return null;
  const here = rimInward(colourAt, side, cut.line, pxPerMm, blurPx / pxPerMm);
  if (!here) return null;
  const band = depth(inner.line) - depth(cut.line);
  if (here.low > band + 1 || here.low < band - Math.max(3, RIM_INNER_SLACK * band)) return null;
  if (distance(here.outer, side.table) < MIN_RIM_STEP) return null;
  const alike = sides.filter((other) => {
    if (other === side) return false;
    const outerThere = outerOf(other, other.crossings, other.median);
    const otherCut = outerThere && fastestChange(colourAt, other, outerThere.line, RIM_CUT_REACH);
    const there = otherCut ? rimInward(colourAt, other, otherCut.line, pxPerMm, blurPx / pxPerMm) : null;
    return (
      there !== null &&
      distance(there.outer, here.outer) <= MAX_BORDER_DIFFERENCE &&
      distance(there.darkest, here.darkest) <= MAX_BORDER_DIFFERENCE
    );
  }).length;
  return alike >= 2 ? cut : null;
}

/**
 * A bevelled rim read inward from `cut` along a side (its median luma profile over the middle
 * 60 %, one pixel apart; rim.ts): where it is darkest (px from the cut), its colour there and at
 * the cut (0.35–0.75 mm in); null when the profile is no rim's.
 */
function rimInward(
  colourAt: RgbSampler,
  side: SideGeometry,
  cut: Line,
  pxPerMm: number,
  blurMm: number,
): { low: number; outer: number[]; darkest: number[] } | null {
  const reach = rimReach(pxPerMm, blurMm);
  const pixel = new Float64Array(3);
  const rows: number[][][] = [];
  for (let t = 0.2; t <= 0.8 + 1e-9; t += 0.01) {
    const at = { x: side.p.x + (side.q.x - side.p.x) * t, y: side.p.y + (side.q.y - side.p.y) * t };
    const from = inwardTo(side, cut, at);
    const row: number[][] = [];
    for (let d = 0; d < reach; d++) {
      colourAt(at.x + side.nx * (from + d), at.y + side.ny * (from + d), pixel);
      row.push([pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0]);
    }
    rows.push(row);
  }
  const colourAtDepth = (d: number) => medianColour(rows.map((row) => row[d] as number[])) ?? [0, 0, 0];
  const lumas = Array.from({ length: reach }, (_, d) => median(rows.map((row) => luma(row[d] as number[]))));
  const low = rimLow(lumas, pxPerMm, blurMm);
  if (low === null) return null;
  const near = Array.from({ length: Math.max(1, Math.round(0.75 * pxPerMm) - Math.round(0.35 * pxPerMm)) }, (_, i) =>
    colourAtDepth(Math.round(0.35 * pxPerMm) + i),
  );
  return { low, outer: medianColour(near) ?? [0, 0, 0], darkest: colourAtDepth(low) };
}

/**
 * True when the band between two lines along a side (`outer` toward the table, `cut` toward the
 * card) is the table in the card's shadow: its colour midway between them, the median along the
 * side's middle 60 %, has the table's hue (image.ts, sameInk) and at most SHADOW_MAX_BRIGHTNESS of
 * its brightness.
 */
function tableInShadow(colourAt: RgbSampler, side: SideGeometry, outer: Line, cut: Line, table: number[]): boolean {
  const { p, q, nx, ny } = side;
  const pixel = new Float64Array(3);
  const band: number[][] = [];
  for (let t = 0.2; t <= 0.8 + 1e-9; t += 0.02) {
    const at = { x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t };
    const d = (inwardTo(side, outer, at) + inwardTo(side, cut, at)) / 2;
    colourAt(at.x + nx * d, at.y + ny * d, pixel);
    band.push([pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0]);
  }
  // On a dark table a shadow has no hue left to tell it by.
  if (luma(table) < MIN_SHADOWED_TABLE_LUMA) return false;
  const shade = medianColour(band);
  if (!shade || !sameInk(shade, table)) return false;
  return luma(shade) <= SHADOW_MAX_BRIGHTNESS * luma(table);
}

/**
 * A band beside the card's face is dark when it is this many luma levels darker than the table
 * (and, on a light border, than the border: over a card, a border's luma drifts by 10 levels or so
 * with the light).
 */
const DARK_BAND_DEPTH = 20;

/** A border darker than this (luma) is told from a dark band by hue only (image.ts, sameInk)... */
const MIN_BANDED_BORDER_LUMA = 100;
/**
 * ...or, for a grey at least this light (its hue offset under DARK_HUE_LEVELS, image.ts), by its
 * tint: a band MIN_TINTED_BAND_DEPTH darker whose tint turns away from the grey's (their offsets
 * from grey, each MIN_TINT_LEVELS or more, pointing apart) is of another ink. A bevelled rim's cool
 * grey at its cut (rgb(99, 103, 116) on drawn Yu-Gi-Oh! cards) beside the card's warm dark edge
 * (rgb(62, 56, 50)) lay 0.068 apart in chromaticity, under sameInk's 0.08, and the band was taken
 * for the rim (stop 79); a blue-grey border's own ink in shade keeps its tint, and is not read past.
 * The turn of the tint is what tells the band, so it need not be DARK_BAND_DEPTH darker: blurred
 * into the table and the rim, a 0.3 mm edge read 15–18 levels under the rim on one drawn photo,
 * whose cut was put on its outer edge (4.8 centering points off; 0.9 read past it).
 */
const MIN_BANDED_GREY_LUMA = 80;
const MIN_TINT_LEVELS = 4;
const MIN_TINTED_BAND_DEPTH = 10;

/** Two near-neutral colours tinted apart: their offsets from grey point more than 90° apart. */
function tintedApart(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  const { sizes, cosine } = hueTurn(a, b);
  return Math.min(...sizes) >= MIN_TINT_LEVELS && cosine < 0;
}

/**
 * True when `colour` could be a dark band beside the card's face (its dark core, a contact shadow)
 * rather than its border `border` or the table `table`: DARK_BAND_DEPTH darker than the table, and
 * either that much darker than a light border, or MIN_TINTED_BAND_DEPTH darker than a mid grey
 * one with its tint turned away (tintedApart: a warm dark edge beside a rim's cool grey), or of
 * another ink than the border (a grey-brown core beside a red or blue border). A near-black
 * border's rim, darker where the light leaves it, is neither (sameInk has no hue to compare under
 * luma 60).
 */
function isDarkBand(colour: ArrayLike<number>, border: number[], table: number[]): boolean {
  const shade = luma(colour);
  if (shade >= luma(table) - DARK_BAND_DEPTH || shade >= luma(border)) return false;
  if (luma(border) >= MIN_BANDED_BORDER_LUMA) return shade < luma(border) - DARK_BAND_DEPTH;
  const grey = luma(border) >= MIN_BANDED_GREY_LUMA && hueLevels(border) < DARK_HUE_LEVELS;
  if (grey && shade < luma(border) - MIN_TINTED_BAND_DEPTH && tintedApart(colour, border)) return true;
  return !sameInk(colour, border);
}

/**
 * How far (mm) past a side's line darkBandBeyondReach reads for the border's colour again; the
 * profiles it reads along the side (every fourth of EDGE_PROFILES).
 */
const BAND_BEYOND_MM = 2.5;
const BAND_BEYOND_PROFILES = 30;

/** A dark band lying inside a side's line further than its readings reach (darkBandBeyondReach). */
interface WideBand {
  /** Its width, from the line to where the border's colour comes back (mm). */
  mm: number;
  /** The same in pixels of the image read. */
  px: number;
  /** The colour the other sides show just past their cut. */
  border: number[];
}

/**
 * A dark band lying inside `line` further than the two readings reach, with the
 * card's border past it: a soft shadow cast on the table beside the cut (on real photos of
 * Yu-Gi-Oh! cards on grey tables, 2.1–2.5 mm wide), which both readings take for the card when the
 * outline found runs along its outer edge. Such a side's median reading steps into a colour of
 * another ink than the one at least two other sides show just past their cut (`theirs`), and
 * darker than it and the table (isDarkBand); and read inward over BAND_BEYOND_MM, the median
 * colour across the side comes back to `theirs` after the band, further in than the median
 * reading reached (`reach`, px: a narrower band, the card's dark core seen along its cut, is the
 * other band rules' to read). A thin border with dark art inside it shows its border's colour
 * before the dark, not after. Null otherwise.
 */
function darkBandBeyondReach(
  colourAt: RgbSampler,
  side: SideReadings,
  line: Line,
  sides: SideReadings[],
  pxPerMm: number,
  reach: number,
): WideBand | null {
  const { card, table } = side;
  if (!card || !table) return null;
  const shown = sides.flatMap((other) => (other !== side && other.card ? [other.card] : []));
  const theirs = medianColour(shown);
  if (!theirs || shown.filter((colour) => distance(colour, theirs) <= MAX_BORDER_DIFFERENCE).length < 2) return null;
  if (sameInk(card, theirs) || !isDarkBand(card, theirs, table)) return null;
  let dark = false;
  for (let d = 0; d <= Math.ceil(BAND_BEYOND_MM * pxPerMm); d++) {
    const colour = colourAcross(colourAt, side, line, d);
    if (dark && distance(colour, theirs) <= MAX_BORDER_DIFFERENCE) {
      return d > reach ? { mm: d / pxPerMm, px: d, border: theirs } : null;
    }
    if (isDarkBand(colour, theirs, table)) dark = true;
  }
  return null;
}

/** The median colour `d` px inside `line` over BAND_BEYOND_PROFILES profiles along the side. */
function colourAcross(colourAt: RgbSampler, side: SideGeometry, line: Line, d: number): number[] {
  const mid = { x: (side.p.x + side.q.x) / 2, y: (side.p.y + side.q.y) / 2 };
  const from = inwardTo(side, line, mid);
  const pixel = new Float64Array(3);
  const colours: number[][] = [];
  for (let s = 0; s < BAND_BEYOND_PROFILES; s++) {
    const base = profileBase(side.p, side.q, (s * EDGE_PROFILES) / BAND_BEYOND_PROFILES + 2);
    colourAt(base.x + side.nx * (from + d), base.y + side.ny * (from + d), pixel);
    colours.push([pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0]);
  }
  return medianColour(colours) as number[];
}

/** How far (px) past where the border's colour came back pastWideShadow reads the rise out of the band. */
const RISE_PAST_PX = 4;

/**
 * The card's face past a wide dark band (darkBandBeyondReach) that is a soft shadow cast on the
 * table: its penumbra begins outside the side's line (the side's median profile darkens from the
 * table toward the line by DARK_BAND_DEPTH or more, never rising back by more than
 * PENUMBRA_SLACK), and the colour falls from the table's to the band's darkest (10–90 %, over the
 * median profile and the band read across the side) over SOFT_SHADOW_RATIO times or more the
 * distance over which it rises out of it into the border's: a cut is as sharp as the photo, a
 * penumbra is not. A dark bar printed along the cut has the table flat outside it and the cut
 * for its outer edge. Each profile's face past the band (facesPastBand, SHADOW_BAND, around its
 * darkest) must then trace a line lying inside `line` within the band's width and 3 px; that line
 * is the side. (A real photo's Yu-Gi-Oh! card lying on a light grey table: below its bottom cut a
 * shadow falling over 14 px from the table's luma 177 to 30, its rim's blue-grey rising out of it
 * over 2 px, 19 px in from the outline's side on the penumbra.) Null otherwise.
 */
function pastWideShadow(
  colourAt: RgbSampler,
  side: SideReadings,
  line: Line,
  band: WideBand,
  table: number[],
): Trace | null {
  const mid = { x: (side.p.x + side.q.x) / 2, y: (side.p.y + side.q.y) / 2 };
  // The median profile's samples (0.5 px apart) from its outer end to the line, then the median
  // across the side (1 px apart) on in past the border's return: positions in px from the line.
  const lineSample = profileIndex(side, inwardTo(side, line, mid));
  const outside = side.medianProfile.slice(0, Math.max(0, Math.min(side.medianProfile.length, lineSample + 1)));
  if (outside.length < 3) return null;
  // Read across the side past where the border's colour came back, to take in the whole rise.
  const inside = Array.from({ length: band.px + RISE_PAST_PX }, (_, d) => ({
    at: d + 1,
    level: luma(colourAcross(colourAt, side, line, d + 1)),
  }));
  const profile: { at: number; level: number }[] = [
    ...outside.map((colour, k) => ({ at: (k - lineSample) / 2, level: luma(colour) })),
    ...inside,
  ];
  const tableLevel = profile[0]?.level ?? luma(table);
  const lineLevel = luma(outside[outside.length - 1] as number[]);
  let lowest = tableLevel;
  for (const { level } of profile.slice(0, outside.length)) {
    if (level > lowest + PENUMBRA_SLACK) return null;
    lowest = Math.min(lowest, level);
  }
  if (lineLevel > tableLevel - DARK_BAND_DEPTH) return null;
  let darkest = 0;
  for (let k = 1; k < profile.length; k++) if ((profile[k]?.level ?? 0) < (profile[darkest]?.level ?? 0)) darkest = k;
  const low = profile[darkest]?.level ?? 0;
  const borderLevel = luma(band.border);
  if (low > Math.min(tableLevel, borderLevel) - DARK_BAND_DEPTH) return null;
  // Where the profile first comes within `share` of the way from the darkest to `level`, outward
  // from the darkest (the fall) or inward (the rise), in px from the line.
  const reaches = (share: number, level: number, step: 1 | -1) => {
    for (let k = darkest + step; k >= 0 && k < profile.length; k += step) {
      const here = profile[k] as { at: number; level: number };
      if (here.level >= low + share * (level - low)) return here.at;
    }
    return null;
  };
  const [fall10, fall90] = [reaches(0.9, tableLevel, -1), reaches(0.1, tableLevel, -1)];
  const [rise10, rise90] = [reaches(0.1, borderLevel, 1), reaches(0.9, borderLevel, 1)];
  if (fall10 === null || fall90 === null || rise10 === null || rise90 === null) return null;
  if (fall90 - fall10 < SOFT_SHADOW_RATIO * Math.max(1, rise90 - rise10)) return null;
  const width = band.px;
  const around = profile[darkest]?.at ?? 0;
  const faces = facesPastBand(colourAt, side, line, width + 3, table, band.border, SHADOW_BAND, around);
  const face = traced(faces.filter((point): point is Point => point !== null));
  return face && liesInside(side, line, face.line, width + 3) ? face : null;
}

/** Only a border darker than this (luma) shows the card's light edge beside it as a band. */
const MAX_LIGHT_BANDED_BORDER_LUMA = 100;

/** A light band is this many luma levels lighter than the border. */
const LIGHT_BAND_HEIGHT = 40;

/**
 * A light band is also lighter than the table by DARK_BAND_DEPTH, or this far (RGB distance) from
 * every blend of the table's colour and the border's: the blur of the cut itself passes through
 * those blends, at any lightness between the two.
 */
const MIN_OFF_BLEND = 30;

/**
 * True when `colour` could be the card's light edge beside a dark border `border` (the white paper
 * of its cut, seen beside the face where the card is photographed at a slant) rather than the
 * border or the table `table`: LIGHT_BAND_HEIGHT lighter than the border, and either
 * DARK_BAND_DEPTH lighter than the table or no blend of the table's colour and the border's (on a
 * green or brown table a grey edge is neither lighter nor darker than the blur of the cut).
 */
function isLightBand(colour: ArrayLike<number>, border: number[], table: number[]): boolean {
  if (luma(border) >= MAX_LIGHT_BANDED_BORDER_LUMA) return false;
  const shade = luma(colour);
  if (shade < luma(border) + LIGHT_BAND_HEIGHT) return false;
  return shade >= luma(table) + DARK_BAND_DEPTH || offBlend(colour, table, border) >= MIN_OFF_BLEND;
}

/** The RGB distance from `colour` to the nearest blend of `a` and `b`. */
function offBlend(colour: ArrayLike<number>, a: number[], b: number[]): number {
  const step = [0, 1, 2].map((ch) => (b[ch] ?? 0) - (a[ch] ?? 0));
  const along = [0, 1, 2].reduce((sum, ch) => sum + ((colour[ch] ?? 0) - (a[ch] ?? 0)) * (step[ch] ?? 0), 0);
  const length = [0, 1, 2].reduce((sum, ch) => sum + (step[ch] ?? 0) ** 2, 0);
  const t = length > 0 ? Math.min(1, Math.max(0, along / length)) : 0;
  return distance(
    colour,
    [0, 1, 2].map((ch) => (a[ch] ?? 0) + t * (step[ch] ?? 0)),
  );
}

/**
 * A band beside the card's face that the colour readings take for card: dark (its dark core, a
 * contact shadow: isDarkBand) or light (its paper edge beside a dark border: isLightBand).
 * `deeper` tells which of two band colours lies further into the band: the darker or the lighter.
 */
interface BandKind {
  is: (colour: ArrayLike<number>, border: number[], table: number[]) => boolean;
  deeper: (a: ArrayLike<number>, b: ArrayLike<number>) => boolean;
  /** Whether the face, `shift` px inside the line taken (outside it when negative), moves the line. */
  moves: (shift: number) => boolean;
  /** Whether the band's deepest sample `k` of the profile `at` stands out from what lies outside it. */
  standsOut: (at: (k: number) => ArrayLike<number>, k: number) => boolean;
  /** How far a colour lies from the border's, as the band stands out from it (RGB distance unless told). */
  away?: (colour: ArrayLike<number>, border: number[], table: number[]) => number;
}

/**
 * A dark band projects past the border's colour, so the colour readings take its outer edge: the
 * face lies inside the line taken. A light band lighter than the table projects past the table's
 * colour instead, and the readings' 50 % crossing falls on the band's inner step but short of its
 * middle (the line inside the face); one between the two falls in the band (the line outside it).
 */
const DARK_BAND: BandKind = {
  is: isDarkBand,
  deeper: (a, b) => luma(a) < luma(b),
  moves: (shift) => shift >= MIN_BAND_SHIFT,
  standsOut: () => true,
};
/** The dark band beside a soft shadow (pastSoftShadow): darker than both the border and the table. */
const SHADOW_BAND: BandKind = {
  is: (colour, border, table) => luma(colour) <= Math.min(luma(border), luma(table)) - DARK_BAND_DEPTH,
  deeper: (a, b) => luma(a) < luma(b),
  moves: (shift) => shift >= MIN_BAND_SHIFT,
  standsOut: () => true,
};
const LIGHT_BAND: BandKind = {
  is: isLightBand,
  deeper: (a, b) => luma(a) > luma(b),
  moves: (shift) => Math.abs(shift) >= MIN_FACE_SHIFT,
  // Lighter by DARK_BAND_DEPTH than something within BAND_CONTEXT_PX outside it (the table, or a
  // dark line between it and the band): the slope of a blur from a light table into a dark band
  // or a shadow beside the cut is no blend of the table and the border either, but nothing
  // outside it is darker (drawn, a grey-brown core beside a blue border on beige, blurred 1.5 px,
  // was read as a light band and the cut put 1.9 px out).
  standsOut: (at, k) => {
    for (let j = Math.max(0, k - 2 * BAND_CONTEXT_PX); j < k; j++)
      if (luma(at(j)) <= luma(at(k)) - DARK_BAND_DEPTH) return true;
    return false;
  },
};

/**
 * A band of another hue: its chromaticity this far (r, g, b shares) from every blend of the
 * table's and the border's.
 */
const MIN_HUE_OFF = 0.025;

/**
 * A grey, silver or white border (luma at least MIN_GREY_BORDER_LUMA, its r, g, b shares within
 * MAX_GREY_SATURATION): its paper edge beside it is neither darker nor lighter, only of another hue.
 */
const MIN_GREY_BORDER_LUMA = 100;
const MAX_GREY_SATURATION = 0.05;
const greyBorder = (colour: number[]) =>
  luma(colour) >= MIN_GREY_BORDER_LUMA && saturation(colour) <= MAX_GREY_SATURATION;

/** `colour`'s r, g, b shares of its sum (its chromaticity). */
function shares(colour: ArrayLike<number>): number[] {
  const sum = Math.max(1, (colour[0] ?? 0) + (colour[1] ?? 0) + (colour[2] ?? 0));
  return [0, 1, 2].map((ch) => (colour[ch] ?? 0) / sum);
}

/** The spread of `colour`'s r, g, b shares: 0 for a grey. */
function saturation(colour: ArrayLike<number>): number {
  const own = shares(colour);
  return Math.max(...own) - Math.min(...own);
}

/** How far `colour`'s chromaticity lies from the nearest blend of `a`'s and `b`'s. */
function hueOffBlend(colour: ArrayLike<number>, a: ArrayLike<number>, b: ArrayLike<number>): number {
  return offBlend(shares(colour), shares(a), shares(b));
}

/**
 * The card's edge seen beside a grey or pale border, of neither one's hue (a tan paper edge beside
 * a silver border on white paper): its chromaticity off every blend of the table's and the
 * border's by MIN_HUE_OFF, no lighter than the table.
 */
const HUE_BAND: BandKind = {
  is: (colour, border, table) => luma(colour) <= luma(table) && hueOffBlend(colour, table, border) >= MIN_HUE_OFF,
  deeper: (a, b) => saturation(a) > saturation(b),
  moves: (shift) => shift >= MIN_BAND_SHIFT,
  standsOut: () => true,
  away: (colour, border, table) => hueOffBlend(colour, table, border),
};

/** How far (px) outside a light band's deepest sample darker ones are looked for. */
const BAND_CONTEXT_PX = 4;

/**
 * Where a band's far side gives way to the card's face along a profile of colours `at(k)` (from
 * outside in, samples 0.5 px apart), `border` the face's colour: the deepest sample among
 * `from`–`to` that is a band of `kind` (the darkest of a dark band) and stands out from what lies
 * outside it, then the first approach from it to the border's colour through halfway (in colour
 * distance from the border), located at that approach's steepest point (a blurred step's
 * inflection, which the blur leaves in place where it raises a narrow band's floor), to a fraction
 * of a sample (a parabola through three). Null without such a band, or when the colour 1.5–2.5 px
 * past that point is not nearer the border's than halfway from the band's; else that point
 * (`face`) and the deepest band sample (`band`).
 */
function faceAfterBand(
  at: (k: number) => ArrayLike<number>,
  from: number,
  to: number,
  border: number[],
  table: number[],
  kind: BandKind,
): { band: number; face: number } | null {
  const awayOf = kind.away ?? ((colour: ArrayLike<number>, ink: number[]) => distance(colour, ink));
  const away = (k: number) => awayOf(at(k), border, table);
  const isBand = (k: number) => kind.is(at(k), border, table);
  let farthest = -1;
  for (let k = from; k <= to; k++) if (isBand(k) && (farthest < 0 || kind.deeper(at(k), at(farthest)))) farthest = k;
  if (farthest < 0 || !kind.standsOut(at, farthest)) return null;
  const far = away(farthest);
  let half = farthest;
  while (half < to + 4 && away(half) > far / 2) half++;
  const approach = (k: number) => away(k - 1) - away(k + 1);
  let steepest = Math.max(farthest + 1, half - 3);
  for (let k = steepest; k <= half + 2; k++) if (approach(k) > approach(steepest)) steepest = k;
  const [a, b, c] = [approach(steepest - 1), approach(steepest), approach(steepest + 1)];
  if (b <= 0) return null;
  const bend = a - 2 * b + c;
  const position = steepest + (bend < 0 ? (0.5 * (a - c)) / bend : 0);
  let past = 0;
  for (let k = Math.round(position) + 3; k <= Math.round(position) + 5; k++) past += away(k) / 3;
  return past <= far / 2 ? { band: farthest, face: position } : null;
}

/**
 * The border's colour (the median profile's 2–4 px past a band up to `inward` px inside `line`,
 * and its blur: 4.5–6.5 px in unless told), when that is the card's border as the sides where both
 * readings agree show it (`cardBorder`, their median colour just past the cut, within twice
 * MAX_BORDER_DIFFERENCE; or where `shown`, each one's, holds that colour at least as often as this
 * side's: past a thin dark border lies art of another colour, and the border would read as a band
 * beside it), a band of `kind` lies from 2.5 px outside `line` to `inward` px inside it on the
 * side's median profile (at the side's middle), and the face begins (faceAfterBand) far enough
 * from the line to move it (`kind.moves`: for a dark band MIN_BAND_SHIFT or more inside, the line
 * having been taken on the band's outer edge or in it, the colour readings having projected the
 * band onto the card's side of the step from the table); null otherwise (`band`: the deepest band
 * sample's depth inside the line, px). (A cut taken rightly, with a band outside it, has the face
 * begin on it.) `fromLine`: only a band running in from the line unbroken (from 1.5 px in to its
 * deepest sample) is taken, as for a band wider than 2.5 px looked for as far in as the readings
 * reach (`inward`): a dark line printed inside a light border has border between it and the cut.
 */
function bandInside(
  side: SideReadings,
  line: Line,
  table: number[],
  cardBorder: number[],
  shown: number[][],
  kind: BandKind,
  inward = 2.5,
  fromLine = false,
): { border: number[]; moved: boolean; band: number | null; colour: number[] | null } | null {
  const mid = { x: (side.p.x + side.q.x) / 2, y: (side.p.y + side.q.y) / 2 };
  const depth = inwardTo(side, line, mid);
  const sample = (d: number) => Math.min(side.medianProfile.length - 1, Math.max(0, profileIndex(side, d)));
  const at = (k: number) => side.medianProfile[Math.min(side.medianProfile.length - 1, Math.max(0, k))] ?? table;
  const inside: number[][] = [];
  for (let d = depth + inward + 2; d <= depth + inward + 4; d += 0.5) inside.push(at(sample(d)) as number[]);
  const border = medianColour(inside) ?? table;
  // What lies past the band must be the card's border as the other sides show it (past a thin
  // dark border lies art of another colour, and the border itself would read as a band): the
  // colour the agreeing sides show just past their cut or, where they show two (bands along some
  // cuts, none along the others: their median is neither), one that at least as many of them
  // show as show this side's colour just past its step, the band's.
  const showing = (colour: number[] | null) =>
    colour === null ? 0 : shown.filter((c) => distance(c, colour) <= 2 * MAX_BORDER_DIFFERENCE).length;
  if (distance(border, cardBorder) > 2 * MAX_BORDER_DIFFERENCE && showing(border) < Math.max(1, showing(side.card))) {
    return null;
  }
  const found = faceAfterBand(at, sample(depth - 2.5), sample(depth + inward), border, table, kind);
  // `fromLine`: the band runs in from the line unbroken (from 1.5 px in, past the cut's blur), as
  // a band the line was taken on the outer edge of does; a dark line printed inside a light border
  // lies past some border.
  if (found && fromLine) {
    for (let k = sample(depth + 1.5); k <= found.band; k++) if (!kind.is(at(k), border, table)) return null;
  }
  return {
    border,
    moved: found !== null && kind.moves((found.face - sample(depth)) / 2),
    band: found && (found.band - sample(depth)) / 2,
    colour: found && [...at(found.band)],
  };
}

/**
 * The face must begin this far (px) inside the line taken for a band to move the line: the two
 * differ by a third of a pixel where a light shadow lies against a cut taken rightly (a real
 * photo's), and by 0.9 px where the card's dark edge was taken into the card (another side of the
 * same photo).
 */
const MIN_BAND_SHIFT = 0.6;

/** The face's line, read profile by profile, must lie this far (px) inside the line on average. */
const MIN_FACE_SHIFT = 0.3;

/**
 * The card's face past a band of `kind` lying at or inside `line` (bandInside), read on each
 * profile (faceAfterBand, from 2.5 px outside the line to `reach` px inside it; the border's
 * colour `border`, bandInside's). The face's line, when it traces the side MIN_FACE_SHIFT
 * or more inside `line` on average over its two ends, and neither end lies further than that
 * outside it or more than `reach` inside (a band's width in the photo changes along a side as the
 * light and the view do); null otherwise.
 */
function pastBand(
  colourAt: RgbSampler,
  side: SideGeometry,
  line: Line,
  reach: number,
  table: number[],
  border: number[],
  kind: BandKind,
): Trace | null {
  const faces = facesPastBand(colourAt, side, line, reach, table, border, kind);
  const face = traced(faces.filter((point): point is Point => point !== null));
  return face && liesInside(side, line, face.line, reach) ? face : null;
}

/** Each profile's light band is looked for this far (px) either side of the median profile's. */
const BAND_ANCHOR_PX = 1.5;

/** The widest light band read past: the card's paper edge (0.3 mm thick) seen at a slant, and the blur. */
const LIGHT_BAND_MM = 0.6;
const MIN_LIGHT_BAND_PX = 3;
/** The card's short side, in mm (a standard card's; the smaller formats differ by 6 % at most). */
const CARD_SHORT_MM = 63;

const dist = (a: Point | undefined, b: Point | undefined) => (a && b ? Math.hypot(b.x - a.x, b.y - a.y) : 0);

/**
 * The card's face past a light band (isLightBand) at `line` beside a dark border: the card's paper
 * edge seen beside its face, where the card is photographed at a slant. On a green or brown table
 * the band is neither lighter nor darker than the blur of the cut and the colour readings' line
 * falls in it, outside the face; on a darker or greyer one it is lighter than the table, and
 * their 50 % crossing falls on its inner step short of the middle, inside the face; a wider band
 * gives them two edges. When the median profile shows the band at the line (bandInside) and the
 * face past it (faceAfterBand) MIN_FACE_SHIFT or more from the line either way, the face read on
 * each profile (facesPastBand); its line when it traces the side within `maxShift` px of `line`
 * at both ends; null otherwise.
 */
function pastLightBand(
  colourAt: RgbSampler,
  side: SideReadings,
  line: Line,
  table: number[],
  cardBorder: number[],
  shown: number[][],
  maxShift: number,
): Trace | null {
  const found = bandInside(side, line, table, cardBorder, shown, LIGHT_BAND, maxShift);
  if (!found?.moved || found.band === null) return null;
  // Each profile's band near the median profile's: on a speckled table, a light fleck just
  // outside the cut would pass for it.
  const faces = facesPastBand(colourAt, side, line, Math.ceil(maxShift), table, found.border, LIGHT_BAND, found.band);
  const face = traced(faces.filter((point): point is Point => point !== null));
  if (!face) return null;
  const shifts = [side.p, side.q].map((end) => inwardTo(side, face.line, end) - inwardTo(side, line, end));
  return shifts.every((shift) => Math.abs(shift) <= maxShift) ? face : null;
}

/** A bow's parabola spans the profiles' share of its side (profileBase: 0.1–0.9). */
const BOW_SPAN = 0.8;

/**
 * The kind of band (dark, light, or of another hue beside a grey border) along a bowed side, or
 * null: one the median profile shows at the chord `line` between the curve's ends that would move
 * it, as a straight side's is read (bandInside); or the colour between the chord and the curve
 * over the middle fifth of the side, where the curve lies `bowPx` outside the chord (halfway
 * between them: on a bent card, its border). A band along part of a cut, widest at its middle (a
 * shadow where the card lifts), makes its crossings bow as a bent cut's do. On a real photo of a
 * silver-bordered card on beige, a tan band 0.5 mm wide (the card's edge) lies along its left
 * cut: read straight, the side's face is found past it; mirrored, the same side was read as a
 * curve through the band's outer edge, 0.5 mm out (5 centering points).
 */
function bandAtBow(
  colourAt: RgbSampler,
  side: SideReadings,
  line: Line,
  bowPx: number,
  table: number[],
  border: number[],
  shown: number[][],
  reach: number,
): string | null {
  const DARK = "darker than the border and the background";
  const LIGHT = "lighter than the border";
  const HUE = "of another hue than the border and the background";
  const moved = (kind: BandKind, inward?: number, fromLine?: boolean) =>
    bandInside(side, line, table, border, shown, kind, inward, fromLine)?.moved === true;
  if (moved(DARK_BAND) || moved(DARK_BAND, reach, true)) return DARK;
  if (moved(LIGHT_BAND)) return LIGHT;
  const hue = bandInside(side, line, table, border, shown, HUE_BAND, reach, true);
  if (hue?.moved && greyBorder(hue.border)) return HUE;
  const pixel = new Float64Array(3);
  const colours: number[][] = [];
  for (let t = 0.4; t <= 0.6 + 1e-9; t += 0.01) {
    const at = { x: side.p.x + (side.q.x - side.p.x) * t, y: side.p.y + (side.q.y - side.p.y) * t };
    const d = inwardTo(side, line, at) - bowPx / 2;
    colourAt(at.x + side.nx * d, at.y + side.ny * d, pixel);
    colours.push([pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0]);
  }
  const between = medianColour(colours);
  if (!between) return null;
  if (DARK_BAND.is(between, border, table)) return DARK;
  if (LIGHT_BAND.is(between, border, table)) return LIGHT;
  return HUE_BAND.is(between, border, table) && greyBorder(border) ? HUE : null;
}

/** Of two readings of a side, the one lying further out (toward the table) on average over its ends. */
function outerOf(side: SideGeometry, a: Trace | null, b: Trace | null): Trace | null {
  if (!a || !b) return a ?? b;
  const depth = (line: Line) => inwardTo(side, line, side.p) + inwardTo(side, line, side.q);
  return depth(a.line) <= depth(b.line) ? a : b;
}

/** Where a side's border is read just inside its line (px), as bandInside reads it past no band. */
const INSIDE_FROM_PX = 4.5;
const INSIDE_TO_PX = 6.5;
/** The fewest sides that must show one colour just inside their line for it to be the border's. */
const MIN_SIDES_SHOWING = 3;

/**
 * The colour of a side's median profile INSIDE_FROM_PX–INSIDE_TO_PX inside the line one of its
 * readings traced (the crossings' where they did, else the median reading's; at the side's
 * middle), or null where neither traced it.
 */
function insideColour(side: SideReadings): number[] | null {
  const trace = side.crossings ?? side.median;
  if (!trace) return null;
  const mid = { x: (side.p.x + side.q.x) / 2, y: (side.p.y + side.q.y) / 2 };
  const depth = inwardTo(side, trace.line, mid);
  return profileColour(side, depth + INSIDE_FROM_PX, depth + INSIDE_TO_PX);
}

/** The index of a side's median profile sample `depth` px inside its base line (sample k lies at depth -reach + k / 2). */
function profileIndex(side: SideReadings, depth: number): number {
  return Math.round(2 * (depth + (side.medianProfile.length - 1) / 4));
}

/** The median colour of a side's median profile from `a` to `b` px inside its base line, over the samples it holds there. */
function profileColour(side: SideReadings, a: number, b: number): number[] | null {
  const picked: number[][] = [];
  for (let d = a; d <= b; d += 0.5) {
    const colour = side.medianProfile[profileIndex(side, d)];
    if (colour) picked.push(colour);
  }
  return medianColour(picked);
}

/**
 * The largest group of `colours` each within MAX_BORDER_DIFFERENCE of the group's median (the
 * group round each colour: those within twice that of it, then those within it of their median),
 * when it holds MIN_SIDES_SHOWING or more; null otherwise. (A real photo of a Yu-Gi-Oh! card: the
 * rim's blue-grey just inside three cuts, rgb(100–122, 114–136, 139–150), and 0.6 mm of
 * near-black along the fourth, which the outline had taken in; the two sides whose readings
 * agreed were the fourth and one other, and their median, rgb(63, 62, 71), neither colour.)
 */
export function mostShown(colours: number[][]): number[][] | null {
  let best: number[][] = [];
  for (const colour of colours) {
    const centre = medianColour(colours.filter((other) => distance(other, colour) <= 2 * MAX_BORDER_DIFFERENCE));
    const group = centre ? colours.filter((other) => distance(other, centre) <= MAX_BORDER_DIFFERENCE) : [];
    if (group.length > best.length) best = group;
  }
  return best.length >= MIN_SIDES_SHOWING ? best : null;
}

/** True when no colour of `colours` lies within twice MAX_BORDER_DIFFERENCE of `colour`. */
function noneNear(colour: number[], colours: number[][]): boolean {
  return colours.every((other) => distance(colour, other) > 2 * MAX_BORDER_DIFFERENCE);
}

/**
 * Where a side's two readings lie apart with a dark band between them (the card's dark core seen
 * beside its face where it is photographed at a slant, or its contact shadow on the table), the
 * inner one, when the band (the median profile's middle half between the two lines) is dark
 * beside the table and beside the colour just past the inner line (isDarkBand), is of no ink of
 * the card's border as the sides whose readings agree show it (`border`; sameInk allows it any
 * shade down to a third, so a border in this side's shadow is that ink still), and the colour past
 * the inner line is nearer that border than the band is, within twice MAX_BORDER_DIFFERENCE. A
 * thin dark border, its art's edge the inner line, is the border's own colour and is not read
 * past. (A real photo of a Yu-Gi-Oh! card on white paper, its bottom edge 9 px of brown-black
 * beside the rim's light outer edge, in the soft shadow the card casts: the outline's bottom had
 * been taken on the band's outer edge, and the card read 1.48 times as tall as wide, no format.)
 * Null otherwise.
 */
function innerPastDarkBand(side: SideReadings, table: number[], border: number[]): Trace | null {
  if (!side.crossings || !side.median) return null;
  const mid = { x: (side.p.x + side.q.x) / 2, y: (side.p.y + side.q.y) / 2 };
  const [outer, inner] =
    inwardTo(side, side.crossings.line, mid) < inwardTo(side, side.median.line, mid)
      ? [side.crossings, side.median]
      : [side.median, side.crossings];
  const from = inwardTo(side, outer.line, mid);
  const to = inwardTo(side, inner.line, mid);
  const band = profileColour(side, from + (to - from) / 4, to - (to - from) / 4);
  const past = profileColour(side, to + 1.5, to + 3);
  if (!band || !past || !isDarkBand(band, past, table)) return null;
  if (sameInk(band, border) || distance(band, border) <= MAX_BORDER_DIFFERENCE) return null;
  const pastBorder = distance(past, border);
  return pastBorder < distance(band, border) && pastBorder <= 2 * MAX_BORDER_DIFFERENCE ? inner : null;
}

/**
 * The cut of a side along part of which a dark band lies (a contact shadow where the card lifts
 * off the table, or its core seen where it bends), where the median profile shows none at the line
 * (half the profiles or more show the table's colour there): on the profiles that show the band
 * (at least MIN_PARTIAL_BAND of them and fewer than MAX_PARTIAL_BAND: a band along the whole side
 * is bandInside's), the face past it (faceAfterBand); on the others, the edge point of the
 * reading `taken` on that profile (within 1.5 px of its line). The line through them, when
 * MIN_PARTIAL_AGREEMENT of them lie within 1.5 px of it (one straight cut), the band is not
 * there unseen between the stretches where it was seen (bandUnseen), and it lies
 * MIN_FACE_SHIFT or more inside `taken`'s on average over the side's ends, neither end more than
 * `reach` px from it; null otherwise. (On the profiles with the band both colour readings find its
 * outer edge, on the others the cut, and the line fitted through both lies between them, tilted:
 * drawn, 1.4–1.8 px outside the cut on average, and inside it at one end.)
 */
function pastPartialBand(
  colourAt: RgbSampler,
  side: SideGeometry,
  taken: Trace,
  reach: number,
  table: number[],
  border: number[],
): Trace | null {
  const faces = facesPastBand(colourAt, side, taken.line, reach, table, border, DARK_BAND);
  const banded = faces.filter((point) => point !== null).length;
  if (banded < MIN_PARTIAL_BAND * EDGE_PROFILES || banded >= MAX_PARTIAL_BAND * EDGE_PROFILES) return null;
  const own: (Point | null)[] = faces.map(() => null);
  for (const point of taken.close) {
    const s = profileOf(side.p, side.q, point);
    if (s >= 0 && s < EDGE_PROFILES) own[s] = point;
  }
  const points = faces.map((face, s) => face ?? own[s] ?? null).filter((point): point is Point => point !== null);
  const cut = traced(points);
  if (!cut || cut.close.length < MIN_PARTIAL_AGREEMENT * points.length) return null;
  if (bandUnseen(side, cut.line, faces, own)) return null;
  // The line taken, tilted between the two groups, may lie inside the cut at one end.
  return liesInside(side, taken.line, cut.line, reach, reach) ? cut : null;
}

/**
 * True when the profiles showing no band between the first and the last that show one (at least
 * MIN_UNSEEN_PROFILES of them with an edge point on the line taken) have that point, at the median,
 * further outside the cut than UNSEEN_BAND_SHARE of the band's width (the median of the banded
 * profiles' edge points' distance outside it): the band lies there too, unseen by the colour test,
 * and where the cut lies along the side cannot be told from where the band was seen. Where a band
 * is truly broken (a card lifting off the table at two places) the edge points between its
 * stretches lie on the cut.
 */
export function bandUnseen(side: SideGeometry, cut: Line, faces: (Point | null)[], own: (Point | null)[]): boolean {
  const first = faces.findIndex((face) => face !== null);
  const last = faces.findLastIndex((face) => face !== null);
  const between: number[] = [];
  const banded: number[] = [];
  for (const [s, point] of own.entries()) {
    if (!point) continue;
    if (faces[s]) banded.push(inwardTo(side, cut, point));
    else if (s > first && s < last) between.push(inwardTo(side, cut, point));
  }
  if (between.length < MIN_UNSEEN_PROFILES || banded.length === 0) return false;
  return median(between) > UNSEEN_BAND_SHARE * median(banded);
}

/** The share of pastPartialBand's points that must lie within 1.5 px of the line through them. */
const MIN_PARTIAL_AGREEMENT = 0.9;

/**
 * Profiles showing a dark band past which pastPartialBand reads the cut, as a share of them. At
 * 0.15, a photo of a card cut out and pasted on white, the grey of its first background left along
 * the top 18 % of one side, had that side's line turned by 2.2 px end to end; its frame there then
 * read 2.85 mm at full resolution and 2.94 at half, 0.8 centering points apart, and the graded
 * photo was refused.
 */
const MIN_PARTIAL_BAND = 0.25;
const MAX_PARTIAL_BAND = 0.8;
/**
 * bandUnseen's limits. `dimas-pikachu.png` (a vintage card on a white desk, its right cut a dark
 * line, then a light one and the shadow's grey within 7 px) shows a band 1.8 px wide on 59 of the
 * top 79 profiles down its right side; the edge points of 12 of the 20 between them (the others
 * have none on the line taken) lie 1.25 px outside the cut through both, at the median (11 and
 * 0.84 px recompressed at JPEG quality 75, where 104 of the
 * 111 points, not 98 of 112, lay within 1.5 px of that line and it was taken: the card read 40.8
 * left to right, where its 50 % crossings measured by hand give 37.9–38.8 and the photo as sent
 * 38.7).
 */
const MIN_UNSEEN_PROFILES = 3;
const UNSEEN_BAND_SHARE = 1 / 3;

/**
 * Each profile's face past a band of `kind` at or inside `line` (faceAfterBand, its band looked for
 * from 2.5 px outside the line to `reach` px inside it, or within BAND_ANCHOR_PX of `around` px
 * inside it), or null where the profile shows no band.
 */
function facesPastBand(
  colourAt: RgbSampler,
  side: SideGeometry,
  line: Line,
  reach: number,
  table: number[],
  border: number[],
  kind: BandKind,
  around: number | null = null,
): (Point | null)[] {
  const { p, q, nx, ny } = side;
  // Samples 0.5 px apart from `outside` px outside the line (2.5, or enough to hold what lies
  // outside an anchored band: kind.standsOut) in to `reach` px past it, and 3 px more.
  const outside = around === null ? 2.5 : Math.max(2.5, BAND_ANCHOR_PX + BAND_CONTEXT_PX - around);
  const n = Math.round(2 * (outside + reach + 3.5));
  const colours = Array.from({ length: n }, () => [0, 0, 0]);
  const pixel = new Float64Array(3);
  const at = (k: number) => colours[Math.min(n - 1, Math.max(0, k))] as number[];
  const faces: (Point | null)[] = [];
  // Sample k lies at `outside` px outside the line plus k / 2.
  const last = Math.round(2 * (outside + reach));
  const sampleAt = (d: number) => Math.min(last, Math.max(0, Math.round(2 * (d + outside))));
  const [from, to] =
    around === null ? [0, last] : [sampleAt(around - BAND_ANCHOR_PX), sampleAt(around + BAND_ANCHOR_PX)];
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const base = profileBase(p, q, s);
    const start = inwardTo(side, line, base) - outside;
    for (let k = 0; k < n; k++) {
      const d = start + k * 0.5;
      colourAt(base.x + nx * d, base.y + ny * d, pixel);
      const colour = colours[k] as number[];
      colour[0] = pixel[0] ?? 0;
      colour[1] = pixel[1] ?? 0;
      colour[2] = pixel[2] ?? 0;
    }
    const found = faceAfterBand(at, from, to, border, table, kind);
    const d = found && start + found.face * 0.5;
    faces.push(d === null ? null : { x: base.x + nx * d, y: base.y + ny * d });
  }
  return faces;
}

/**
 * True when `inner` lies MIN_FACE_SHIFT or more inside `line` on average over the side's two ends,
 * and neither end lies more than `outward` px outside it (MIN_FACE_SHIFT unless told) or more than
 * `reach` inside (a band's width in the photo changes along a side as the light and the view do).
 */
function liesInside(side: SideGeometry, line: Line, inner: Line, reach: number, outward = MIN_FACE_SHIFT): boolean {
  const shifts = [side.p, side.q].map((end) => inwardTo(side, inner, end) - inwardTo(side, line, end));
  const [first = 0, last = 0] = shifts;
  return first + last >= 2 * MIN_FACE_SHIFT && shifts.every((shift) => shift >= -outward && shift <= reach);
}

/**
 * A shadow's penumbra darkens the table at least this many times as gradually (10–90 %, px) as
 * the card's face rises out of the band beside it: a cut is as sharp as the photo, a soft shadow's
 * edge is not.
 */
const SOFT_SHADOW_RATIO = 3;
/** The dark band between a soft shadow and the face (the card's edge, its contact shadow) is at most this wide (mm). */
const MAX_EDGE_BAND_MM = 1;
/** Going down a penumbra, the median profile may rise back by at most this much (luma). */
const PENUMBRA_SLACK = 6;

/**
 * The face of a side whose two readings found two edges, the outer of them in the penumbra of a
 * soft shadow cast on the table beside a narrow dark band (the card's edge seen beside its face,
 * its contact shadow). Read in from the outer reading, the side's median profile falls to its
 * darkest and then rises out of it (by DARK_BAND_DEPTH, or halfway to the border's luma) into a
 * colour within twice MAX_BORDER_DIFFERENCE of the card's border as the agreeing sides show it
 * (`border`) or as it would show in this side's light (`relit`); the darkest lies DARK_BAND_DEPTH
 * below both that colour and the table's, and further than twice MAX_BORDER_DIFFERENCE from the
 * border's. Out from the darkest to the table the profile darkens steadily (never rising back by
 * more than PENUMBRA_SLACK), over SOFT_SHADOW_RATIO times or more the distance over which it rises
 * into the border (10–90 % each: a cut is as sharp as the photo, a penumbra is not); the band
 * between them (darker than a tenth of the way back to either) is at most MAX_EDGE_BAND_MM wide;
 * the penumbra's middle has the table's hue, darker (a shadow's). The face is then read on each
 * profile past the band near the median profile's (facesPastBand, SHADOW_BAND), within `reach` of
 * the outer reading, and its line must lie within 1.5 px of the rise on the median profile at the
 * side's middle. (Real photos of Yu-Gi-Oh! cards: below one's bottom edge on a grey table a
 * penumbra 9 px wide, then 4 px of near black, then the rim's blue-grey, both readings in the
 * penumbra; above another's top edge on grey cloth a penumbra 7 px wide, then 2 px of dark, the
 * median reading on the rise and the crossings in the penumbra.) A printed rim darker than the
 * body is wider than the band allowed, or rises into the body's colour, not the border's; and a
 * cut against the table is sharp. Null otherwise.
 */
function pastSoftShadow(
  colourAt: RgbSampler,
  side: SideReadings,
  reach: number,
  table: number[],
  border: number[],
  relit: number[] | null,
  pxPerMm: number,
): Trace | null {
  if (!side.crossings || !side.median) return null;
  const profile = side.medianProfile;
  const half = (profile.length - 1) / 4;
  const mid = { x: (side.p.x + side.q.x) / 2, y: (side.p.y + side.q.y) / 2 };
  const depths = [side.crossings, side.median].map((trace) => inwardTo(side, trace.line, mid));
  const outer = (depths[0] ?? 0) <= (depths[1] ?? 0) ? side.crossings : side.median;
  // Sample k of the median profile lies at depth -half + k / 2.
  const from = Math.max(0, Math.round(2 * (Math.min(...depths) + half)));
  const shade = profile.map((colour) => luma(colour));
  const level = (k: number) => shade[k] ?? 0;
  // The darkest sample before the profile rises out of it toward the border (DARK_BAND_DEPTH or
  // halfway to the border's luma, the more).
  const borderLuma = Math.min(luma(border), luma(relit ?? border));
  let darkest = from;
  let rising = -1;
  for (let k = from; k < profile.length && rising < 0; k++) {
    if (level(k) < level(darkest)) darkest = k;
    else if (level(k) >= level(darkest) + Math.max(DARK_BAND_DEPTH, (borderLuma - level(darkest)) / 2)) rising = k;
  }
  if (rising < 0) return null;
  // The border past the rise: its colour where the profile stops rising, as the agreeing sides
  // show it or as it would show in this side's light.
  let top = rising;
  while (top + 1 < profile.length && level(top + 1) > level(top)) top++;
  const shown = medianColour(profile.slice(Math.max(rising, top - 1), top + 2));
  const own = [border, relit].filter((colour): colour is number[] => colour !== null);
  const ink = shown && own.find((colour) => distance(shown, colour) <= 2 * MAX_BORDER_DIFFERENCE);
  const band = profile[darkest];
  if (!shown || !ink || !band || distance(band, ink) <= 2 * MAX_BORDER_DIFFERENCE) return null;
  const low = level(darkest);
  const tableLuma = level(0);
  if (low > Math.min(luma(shown), tableLuma) - DARK_BAND_DEPTH) return null;
  // The rise into the border, inward from the darkest sample.
  const up = (share: number) => {
    for (let k = darkest + 1; k <= top; k++) if (level(k) >= low + share * (luma(shown) - low)) return k;
    return -1;
  };
  const [rise10, rise90] = [up(0.1), up(0.9)];
  if (rise10 < 0 || rise90 < 0) return null;
  // The penumbra, outward from the darkest sample to the table.
  const down = (share: number) => {
    for (let k = darkest - 1; k >= 0; k--) if (level(k) >= low + share * (tableLuma - low)) return k;
    return -1;
  };
  const [fall10, fall90] = [down(0.1), down(0.9)];
  if (fall10 < 0 || fall90 < 0) return null;
  let lowest = level(fall90);
  for (let k = fall90 + 1; k <= darkest; k++) {
    if (level(k) > lowest + PENUMBRA_SLACK) return null;
    lowest = Math.min(lowest, level(k));
  }
  const riseWidth = Math.max(1, rise90 - rise10);
  if (fall10 - fall90 < SOFT_SHADOW_RATIO * riseWidth) return null;
  if ((rise10 - fall10) / 2 > MAX_EDGE_BAND_MM * pxPerMm) return null;
  const penumbra = profile[Math.round((fall10 + fall90) / 2)];
  if (!penumbra || !sameInk(penumbra, table) || luma(penumbra) > SHADOW_MAX_BRIGHTNESS * tableLuma) return null;
  // Each profile's band near the median profile's (further in, a dark rim may be darker still).
  const around = -half + darkest / 2 - Math.min(...depths);
  const faces = facesPastBand(colourAt, side, outer.line, reach, table, shown, SHADOW_BAND, around);
  const face = traced(faces.filter((point): point is Point => point !== null));
  if (!face || !liesInside(side, outer.line, face.line, reach)) return null;
  const riseDepth = -half + (rise10 + rise90) / 4;
  return Math.abs(inwardTo(side, face.line, mid) - riseDepth) <= 1.5 ? face : null;
}

/** A table darker than this (luma) shows no hue in shadow to tell the shadow by (image.ts, sameInk's DARK_INK_LUMA). */
const MIN_SHADOWED_TABLE_LUMA = 60;

/** A cast shadow leaves at most this share of the table's brightness. */
const SHADOW_MAX_BRIGHTNESS = 0.95;

/** The cut read past a contact shadow lies this far (px) inside the readings that took the shadow in. */
const MIN_SHADOW_SHIFT = 0.5;
const MAX_SHADOW_SHIFT = 3;

/**
 * The side's edge points read in colour that a shadow of the table does not change: each sample's
 * component across the table's colour (a shadow scales the table's colour, so its component across
 * it is nil, as the table's is), projected onto the card's: 0 on the table and in its shadow, 1 on
 * the card. The 50 % crossing nearest the profile's middle, with the table's side below 35 % and
 * the card's above 65 % 1.5–2.5 px either side. Nothing when the card's colour has too little
 * component across the table's (its border differs from the table in brightness only).
 */
function shadowFreePoints(
  colourAt: RgbSampler,
  side: SideGeometry,
  halfLength: number,
  table: number[],
  card: number[],
): Point[] {
  const { p, q, nx, ny } = side;
  const [t0 = 0, t1 = 0, t2 = 0] = table;
  const tt = Math.max(1, t0 * t0 + t1 * t1 + t2 * t2);
  const across = (c: ArrayLike<number>): [number, number, number] => {
    const along = ((c[0] ?? 0) * t0 + (c[1] ?? 0) * t1 + (c[2] ?? 0) * t2) / tt;
    return [(c[0] ?? 0) - along * t0, (c[1] ?? 0) - along * t1, (c[2] ?? 0) - along * t2];
  };
  const [u0, u1, u2] = across(card);
  const uu = u0 * u0 + u1 * u1 + u2 * u2;
  if (uu < MIN_ACROSS_STEP ** 2) return [];
  const n = halfLength * 4 + 1;
  const value = new Float64Array(n);
  const pixel = new Float64Array(3);
  const points: Point[] = [];
  const middle = (n - 1) / 2;
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const base = profileBase(p, q, s);
    for (let k = 0; k < n; k++) {
      const d = -halfLength + k * 0.5;
      colourAt(base.x + nx * d, base.y + ny * d, pixel);
      const [a0, a1, a2] = across(pixel);
      value[k] = (a0 * u0 + a1 * u1 + a2 * u2) / uu;
    }
    const read = (k: number) => value[k] ?? 0;
    const at = realStep(read, n, risingCrossing(read, n, 0, n - 1, middle));
    if (at === null) continue;
    const d = -halfLength + at * 0.5;
    points.push({ x: base.x + nx * d, y: base.y + ny * d });
  }
  return points;
}

/** The card's colour must differ from the table's by this much across the table's own (RGB levels). */
const MIN_ACROSS_STEP = 25;

/**
 * The side read again past one line of the table: true when the step after it leads into
 * `borderColour` and its line agrees with `crossings` at both ends of the side.
 */
function pastTableLine(
  colourAt: RgbSampler,
  side: SideGeometry,
  halfLength: number,
  borderColour: number[],
  crossings: Trace,
): boolean {
  const reading = sideFromMedianProfile(colourAt, side.p, side.q, side.nx, side.ny, halfLength, 1);
  const trace = traced(reading.points);
  if (!trace || !reading.card || distance(reading.card, borderColour) > MAX_BORDER_DIFFERENCE) return false;
  return linesApart(side, trace.line, crossings.line) <= MAX_EDGE_DISAGREEMENT;
}

/**
 * True when the border's colour lies just inside the crossings' line and, along at least
 * MIN_TABLE_BESIDE of it, the table's own colour just outside: the band the median reading
 * stepped into first (a patch or a line of the table lying against part of the cut) does not run
 * along the whole side, as a sleeve's margin or the card's own border would.
 */
function tableBesideCut(
  colourAt: RgbSampler,
  side: SideGeometry,
  reach: number,
  borderColour: number[],
  crossings: Trace,
): boolean {
  const pixel = new Float64Array(3);
  const at = (point: Point, depth: number) => {
    colourAt(point.x + side.nx * depth, point.y + side.ny * depth, pixel);
    return [pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0];
  };
  const points = crossings.close;
  if (points.length === 0) return false;
  // The table: the median colour `reach` px outside the cut, where the median profile starts.
  const far = points.map((point) => at(point, -reach));
  const table = medianColour(far) ?? [0, 0, 0];
  const inside = points.map((point) => at(point, 2.5));
  const border = medianColour(inside) ?? [0, 0, 0];
  if (distance(border, borderColour) > MAX_BORDER_DIFFERENCE) return false;
  const tableOutside = points.filter((point) => distance(at(point, -2.5), table) <= MAX_BORDER_DIFFERENCE).length;
  return tableOutside >= MIN_TABLE_BESIDE * points.length;
}

/**
 * True when the median reading stepped, outside the crossings' line along the whole side, into the
 * table's own ink in another light (image.ts, sameInk with the table past it: a light joint or
 * grout line of a tiled table running along the card, too near it for table to show between), a
 * step smaller than the cut's (MIN_CUT_OVER_BAND), and the crossings trace the side cleanly
 * (MIN_CLEAN_CUT) with the border's colour just inside their line at as many profiles: the band is
 * the table's, and the crossings' line is the cut. A sleeve's clear margin is the table's ink too; its cut inside is
 * the card's, and where the other sides lie on the sleeve's edge, the colour they show inside it
 * is the sleeve's margin, not the border that lies inside this one's.
 */
function tableInkOutside(colourAt: RgbSampler, side: SideReadings, borderColour: number[], crossings: Trace): boolean {
  const { median, card, table } = side;
  if (!median || !card || !table || !sameInk(card, table)) return false;
  // The crossings take the larger step near the line: the band's, where it is as large as the cut's.
  if (distance(borderColour, table) < MIN_CUT_OVER_BAND * distance(card, table)) return false;
  if (crossings.close.length < MIN_CLEAN_CUT * EDGE_PROFILES) return false;
  if (![side.p, side.q].every((end) => inwardTo(side, median.line, end) < inwardTo(side, crossings.line, end))) {
    return false;
  }
  // Read on the line itself at every profile: where a bright band lies against the cut, the
  // crossings beside it drift out toward the band, and the fitted line with them.
  const pixel = new Float64Array(3);
  let borderInside = 0;
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const base = profileBase(side.p, side.q, s);
    const depth = inwardTo(side, crossings.line, base) + BORDER_INSIDE_PX;
    colourAt(base.x + side.nx * depth, base.y + side.ny * depth, pixel);
    if (distance([pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0], borderColour) <= MAX_BORDER_DIFFERENCE) borderInside++;
  }
  return borderInside >= MIN_CLEAN_CUT * EDGE_PROFILES;
}

/** How far inside a cut (px) the border's colour is read, clear of the cut's blur. */
const BORDER_INSIDE_PX = 2.5;
/**
 * The cut's step (the border's colour distance from the table's) must be this many times the
 * band's step into the table for the crossings beside the band to be taken: a light bevelled rim
 * 42–50 levels off a grey tiled table, a joint 53–79 levels light of it along the cut, had its
 * crossings on the joint's inner edge over half the side, 2–3 px out (1.7 points); the cuts
 * taken read 133–156 levels against bands of 56–74.
 */
const MIN_CUT_OVER_BAND = 1.5;

/** Where the `s`-th of EDGE_PROFILES profiles crosses side p–q: spread over its middle 80 %, clear of the corners. */
function profileBase(p: Point, q: Point, s: number): Point {
  const t = 0.1 + (0.8 * (s + 0.5)) / EDGE_PROFILES;
  return { x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t };
}

/** The profile (profileBase's `s`) on whose normal through its base `point` lies. */
function profileOf(p: Point, q: Point, point: Point): number {
  const t = ((point.x - p.x) * (q.x - p.x) + (point.y - p.y) * (q.y - p.y)) / ((q.x - p.x) ** 2 + (q.y - p.y) ** 2);
  return Math.round(((t - 0.1) / 0.8) * EDGE_PROFILES - 0.5);
}

/** How far apart two lines of a side are at its ends (px, along the inward normal from p and q). */
function linesApart(side: SideGeometry, a: Line, b: Line): number {
  return Math.max(...[side.p, side.q].map((end) => Math.abs(inwardTo(side, a, end) - inwardTo(side, b, end))));
}

/** How far (px) `line` lies inward from the middle of the side's given ends. */
function inwardAtMiddle(side: SideGeometry, line: Line): number {
  return inwardTo(side, line, { x: (side.p.x + side.q.x) / 2, y: (side.p.y + side.q.y) / 2 });
}

/** How far (px) `line` lies from `from` along the side's inward normal. */
function inwardTo(side: SideGeometry, line: Line, from: Point): number {
  return -(line.a * from.x + line.b * from.y - line.c) / (line.a * side.nx + line.b * side.ny);
}

interface Trace {
  line: Line;
  /** The points within 1.5 px of the line. */
  close: Point[];
}

/** A side of the outline: its ends and its inward unit normal. */
interface SideGeometry {
  p: Point;
  q: Point;
  nx: number;
  ny: number;
}

interface SideReadings extends SideGeometry {
  crossings: Trace | null;
  median: Trace | null;
  /** The colour just past the median reading's step. */
  card: number[] | null;
  /** The table's colour: the median profile's outer end. */
  table: number[] | null;
  /** The median profile (sideFromMedianProfile), from the table in. */
  medianProfile: number[][];
  /** The two readings' largest distance apart at the side's ends (px), when both traced it. */
  apart: number | null;
  /** The median reading's step led into the table in shadow, taken for the card (MedianReading). */
  shadowAsCard: boolean;
}

/**
 * `colour`, seen beside a table whose colour is `tableThere`, as it would show where the same table
 * reads `tableHere`: each channel scaled by the table's ratio, one light falling on both.
 */
function inLightOf(colour: readonly number[], tableThere: readonly number[], tableHere: readonly number[]): number[] {
  return colour.map((value, ch) => (value * (tableHere[ch] ?? 0)) / Math.max(1, tableThere[ch] ?? 0));
}

/** A line through the points with at least MIN_EDGE_COVERAGE of the profiles within 1.5 px of it. */
function traced(points: Point[]): Trace | null {
  const line = fitLine(points);
  if (!line) return null;
  const close = points.filter((s) => Math.abs(line.a * s.x + line.b * s.y - line.c) <= 1.5);
  return close.length >= EDGE_PROFILES * MIN_EDGE_COVERAGE ? { line, close } : null;
}

/**
 * An edge bowed rather than straight: at least MIN_BOW_PX from its chord at the middle, with
 * MIN_BOW_SHARE of the side's profiles within 1.5 px of the parabola fitted across it. A creased
 * baseball card's top edge, untraced as a line, lay on such a parabola at all 120 profiles (bowed
 * 10 px over 980), and a card held in a hand at 113; an edge traced on pieces of print where a
 * silver border meets white paper only at 67, and no other untraced side of the real photos at
 * more than 63.
 */
const MIN_BOW_PX = 2;
const MIN_BOW_SHARE = 0.8;

/**
 * A parabola across a side (from `p` to `q`) through its edge points: `along` (t, from the side's
 * middle) and `across` (n, along (-uy, ux)) for each point, the curve n(t), how many points lie
 * within 1.5 px of it, and the side's length and direction. Null for too few points.
 */
function sideParabola(points: Point[], p: Point, q: Point) {
  if (points.length < EDGE_PROFILES * MIN_BOW_SHARE) return null;
  const length = Math.hypot(q.x - p.x, q.y - p.y);
  const ux = (q.x - p.x) / length;
  const uy = (q.y - p.y) / length;
  const along = points.map((point) => (point.x - p.x) * ux + (point.y - p.y) * uy - length / 2);
  const across = points.map((point) => (point.y - p.y) * ux - (point.x - p.x) * uy);
  const parabola = fitParabola(along, across);
  if (!parabola) return null;
  const { a, b, c } = parabola;
  const curve = (t: number) => a * t * t + b * t + c;
  let close = 0;
  for (const [i, t] of along.entries()) if (Math.abs((across[i] ?? 0) - curve(t)) <= 1.5) close++;
  return { along, across, a, curve, close, length, ux, uy };
}

/**
 * How far (px) a side's edge points bow from a straight line, when a parabola across the side
 * (from `p` to `q`) holds them where no line does: its sagitta over the side's length, or null.
 */
function bowOf(points: Point[], p: Point, q: Point): number | null {
  const fit = sideParabola(points, p, q);
  if (!fit) return null;
  const bow = Math.abs(fit.a) * (fit.length / 2) ** 2;
  return fit.close >= EDGE_PROFILES * MIN_BOW_SHARE && bow >= MIN_BOW_PX ? bow : null;
}

/**
 * The most a side's cut may bow out past its chord and still be measured from its curve
 * (bowedCut), as a share of the side's length. A real photo of a creased baseball card on dark
 * cloth bows out on three sides, its top 10 px over 980 (1.0 %): each border read from the cut
 * beside it, scan line by scan line, then varies by 0.1 mm along the side (the printed frame,
 * 3 mm further in, bows 0.6 times as much).
 */
const MAX_BOW_SHARE = 0.015;
/** The curve must hold this share of the side's profiles more than a line does. */
const MIN_BOW_GAIN = 0.1;

/**
 * A side whose edge points (`points`, from `p` to `q`; `nx`, `ny` the side's inward normal) lie
 * on a parabola that bows out past its chord (toward the table) by at least MIN_BOW_PX and at most
 * MAX_BOW_SHARE of its length, with MIN_BOW_SHARE of the profiles within 1.5 px of it (bowOf's
 * test) and MIN_BOW_GAIN of them more than any line holds, which must not trace the side cleanly:
 * the card does not lie flat, or the lens bends its edge. The side's line is then the
 * chord through the curve at the side's ends (where the corners lie), its points the edge points
 * moved onto the chord by the curve's offset (so that their scatter about the line is the
 * curve's), and `share` the bow at the middle over the side's length. The borders on such a side
 * are read from the curve (frame.ts, `bow`). A side bowing in is not taken: the flat card would
 * hold the table along it, where the wear readings would see missing material.
 */
function bowedCut(points: Point[], p: Point, q: Point, nx: number, ny: number): { trace: Trace; share: number } | null {
  const fit = sideParabola(points, p, q);
  if (!fit) return null;
  const { along, across, curve, close, length, ux, uy } = fit;
  // `across` runs along (-uy, ux); `sign` turns it inward. Out past the chord at the middle: the
  // curve's value there lies outward of the ends' mean.
  const sign = nx * -uy + ny * ux >= 0 ? 1 : -1;
  const outward = sign * fit.a * (length / 2) ** 2;
  if (close < EDGE_PROFILES * MIN_BOW_SHARE || outward < MIN_BOW_PX || outward > MAX_BOW_SHARE * length) return null;
  // A line must not do as well: a side traced cleanly as one (MIN_CLEAN_CUT), or holding nearly as
  // many points as the curve (a dark band along part of a cut splits the crossings between its
  // outer edge and the cut, which a parabola may pass between), is no bow.
  const straight = traced(points);
  const onLine = straight ? straight.close.length : 0;
  if (onLine >= MIN_CLEAN_CUT * EDGE_PROFILES || close < onLine + MIN_BOW_GAIN * EDGE_PROFILES) return null;
  const at = (t: number, n: number): Point => ({
    x: p.x + ux * (t + length / 2) - uy * n,
    y: p.y + uy * (t + length / 2) + ux * n,
  });
  const line = lineThrough(at(-length / 2, curve(-length / 2)), at(length / 2, curve(length / 2)));
  const chord = (t: number) =>
    curve(-length / 2) + ((t + length / 2) / length) * (curve(length / 2) - curve(-length / 2));
  const close2: Point[] = [];
  for (const [i, t] of along.entries()) {
    const off = (across[i] ?? 0) - curve(t);
    if (Math.abs(off) <= 1.5) close2.push(at(t, chord(t) + off));
  }
  return { trace: { line, close: close2 }, share: outward / length };
}

interface MedianReading {
  /** The side's edge points, one per profile that shows the step. */
  points: Point[];
  /** The colour just past the step (the card's, usually its border's); null without a step. */
  card: number[] | null;
  /** The median profile's colours, 0.5 px apart from its outer end. */
  profile: number[][];
  /** The step was into what looked like the table in shadow, with no step out of it (the card's light border of the table's hue). */
  shadowAsCard?: boolean;
}

/**
 * A side read from its median profile (per channel, over EDGE_PROFILES profiles of ±`halfLength`
 * px, 0.5 px apart) first: the table's colour at its outer end; the first step out of it (three
 * samples in a row further than 30 % of the profile's largest departure, at least 20), climbed to
 * its steepest point and followed while it still changes; the colour just past it (and when that
 * colour is the table in shadow, the next step out of the shadow). Each profile's
 * edge point is then the 50 % crossing between those two colours nearest the median's, with the
 * table's side below 35 % and the card's above 65 % 1.5–2.5 px either side (a real step, not
 * noise), and the colour just past the step. No points when the median profile shows no step.
 * With `tableLines` > 0, that many lines of the table are passed first: a band of another colour
 * whose far side is the table's colour again (a joint, grout, a seam), not a band against the card.
 */
function sideFromMedianProfile(
  colourAt: RgbSampler,
  p: Point,
  q: Point,
  nx: number,
  ny: number,
  halfLength: number,
  tableLines = 0,
): MedianReading {
  const n = halfLength * 4 + 1;
  // All profiles in one buffer: profile s, sample k, channel ch at (s * n + k) * 3 + ch.
  const count = EDGE_PROFILES;
  const samples = new Float64Array(count * n * 3);
  const bases: Point[] = [];
  const pixel = new Float64Array(3);
  for (let s = 0; s < count; s++) {
    const base = profileBase(p, q, s);
    for (let k = 0; k < n; k++) {
      const d = -halfLength + k * 0.5;
      colourAt(base.x + nx * d, base.y + ny * d, pixel);
      samples.set(pixel, (s * n + k) * 3);
    }
    bases.push(base);
  }
  // Per sample and channel, the median over the profiles (selected, not sorted).
  const column = new Float64Array(count);
  const middle = count >> 1;
  const medianProfile: number[][] = [];
  for (let k = 0; k < n; k++) {
    const colour = [0, 0, 0];
    for (let ch = 0; ch < 3; ch++) {
      for (let i = 0; i < count; i++) column[i] = samples[(i * n + k) * 3 + ch] ?? 0;
      const upper = selectKth(column, count, middle);
      // After the selection everything below `middle` is at most `upper`: the lower middle is their largest.
      let lower = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < middle; i++) lower = Math.max(lower, column[i] ?? 0);
      colour[ch] = count % 2 ? upper : (lower + upper) / 2;
    }
    medianProfile.push(colour);
  }
  const NO_READING: MedianReading = { points: [], card: null, profile: medianProfile };
  const at = (k: number) => medianProfile[Math.min(n - 1, Math.max(0, k))] as number[];
  let table = [0, 1, 2].map((ch) => ((at(0)[ch] ?? 0) + (at(1)[ch] ?? 0) + (at(2)[ch] ?? 0)) / 3);
  let widest = 0;
  for (const colour of medianProfile) widest = Math.max(widest, distance(colour, table));
  const threshold = Math.max(20, 0.3 * widest);
  const slope = (k: number) => distance(at(k + 1), at(k - 1)) / 2;
  // The first step out of the table; when it leads only into a shadow of the table (or the
  // card's dark edge seen beside its face), the next step out of that.
  let from = 3;
  let first = -1;
  let steepest = 0;
  let end = 0;
  let card: number[] = [];
  const tableColour = table;
  let linesLeft = tableLines;
  let onLine = false;
  let shadowStep: { first: number; steepest: number; end: number; card: number[]; from: number } | null = null;
  let shadowAsCard = false;
  for (let pass = 0; ; pass++) {
    first = -1;
    for (let k = from; k + 2 < n && first < 0; k++) {
      if ([k, k + 1, k + 2].every((j) => distance(at(j), table) > threshold)) first = k;
    }
    if (first >= 0) {
      steepest = Math.max(1, first - 2);
      while (steepest + 2 < n && slope(steepest + 1) >= slope(steepest)) steepest++;
      end = steepest;
      while (end + 2 < n && slope(end + 1) > 0.25 * slope(steepest)) end++;
    }
    if (first < 0 || end + 2 >= n) {
      // No step out of what was taken for the table in shadow before the profile ends: it was
      // the card, a light border of the table's hue a shade darker (a silver border on white
      // paper). A dark one is not taken: on a drawn photo of a 0.9 mm black border on dark grey
      // gravel, taken so along its wide top, its left cut came out 0.6 px out (2.2 points off).
      if (!shadowStep) return NO_READING;
      ({ first, steepest, end, card, from } = shadowStep);
      table = tableColour;
      shadowAsCard = true;
      break;
    }
    card = [0, 1, 2].map((ch) => ((at(end + 1)[ch] ?? 0) + (at(end + 2)[ch] ?? 0)) / 2);
    // The step out of a line of the table leads back onto the table; otherwise the band was no
    // line of the table (a sleeve's margin lies against the card).
    if (onLine && distance(card, tableColour) > threshold) return NO_READING;
    const shadow = pass === 0 && isShadowOf(card, table);
    if (shadow && luma(card) >= MIN_GREY_BORDER_LUMA) shadowStep = { first, steepest, end, card, from };
    if (!onLine && !shadow && linesLeft === 0) break;
    if (!onLine && !shadow) {
      linesLeft--;
      onLine = true;
    } else onLine = false;
    table = card;
    from = end + 1;
  }
  const step = distance(card, table);
  if (step < 24) return NO_READING;
  const axis = [0, 1, 2].map((ch) => ((card[ch] ?? 0) - (table[ch] ?? 0)) / (step * step));
  const [t0 = 0, t1 = 0, t2 = 0] = table;
  const [a0 = 0, a1 = 0, a2 = 0] = axis;
  const project = (colour: ArrayLike<number>, at = 0) =>
    ((colour[at] ?? 0) - t0) * a0 + ((colour[at + 1] ?? 0) - t1) * a1 + ((colour[at + 2] ?? 0) - t2) * a2;
  const sideAt = risingCrossing((k) => project(at(k)), n, Math.max(from - 1, first - 4), end + 2, steepest);
  if (sideAt === null) return NO_READING;
  const points: Point[] = [];
  for (let s = 0; s < count; s++) {
    const offset = s * n * 3;
    const value = (k: number) => project(samples, offset + k * 3);
    const position = realStep(
      value,
      n,
      risingCrossing(value, n, Math.floor(sideAt - 8), Math.ceil(sideAt + 8), sideAt),
    );
    if (position === null) continue;
    const base = bases[s] as Point;
    const d = -halfLength + position * 0.5;
    points.push({ x: base.x + nx * d, y: base.y + ny * d });
  }
  return { points, card, profile: medianProfile, shadowAsCard };
}

/** The rising 50 % crossing (in samples) of `value` nearest `near` between `from` and `to`. */
function risingCrossing(
  value: (k: number) => number,
  n: number,
  from: number,
  to: number,
  near: number,
): number | null {
  let best: number | null = null;
  for (let k = Math.max(0, from); k < Math.min(n - 1, to); k++) {
    const a = value(k);
    const b = value(k + 1);
    if (a < 0.5 && b >= 0.5) {
      const position = k + (0.5 - a) / (b - a);
      if (best === null || Math.abs(position - near) < Math.abs(best - near)) best = position;
    }
  }
  return best;
}

/**
 * `position` when it is a real step, not noise: the values 1.5–2.5 px (3–5 samples) before it
 * below 35 % and after it above 65 %; null otherwise.
 */
function realStep(value: (k: number) => number, n: number, position: number | null): number | null {
  if (position === null) return null;
  const mean = (from: number, to: number) => {
    let sum = 0;
    let taken = 0;
    for (let k = Math.max(0, Math.round(position + from)); k <= Math.min(n - 1, Math.round(position + to)); k++) {
      sum += value(k);
      taken++;
    }
    return taken > 0 ? sum / taken : Number.NaN;
  };
  return mean(-5, -3) < 0.35 && mean(3, 5) > 0.65 ? position : null;
}

/** `colour` is `table` in shadow: the same chromaticity (within 0.03) at 30–92 % of its luma. */
function isShadowOf(colour: number[], table: number[]): boolean {
  const ratio = luma(colour) / Math.max(1, luma(table));
  if (ratio < 0.3 || ratio > 0.92) return false;
  const sum = (c: number[]) => Math.max(1, (c[0] ?? 0) + (c[1] ?? 0) + (c[2] ?? 0));
  return [0, 1, 2].every((ch) => Math.abs((colour[ch] ?? 0) / sum(colour) - (table[ch] ?? 0) / sum(table)) < 0.03);
}
