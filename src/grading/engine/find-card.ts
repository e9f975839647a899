// Finding the card in a photo from independent cues, then measuring its edges to a fraction of a
// pixel.
// 1. On a coarse copy (≤ 640 px): colour gradients, and the strongest straight lines through them
//    (edges.ts); the colour difference from the table gives one more candidate outline
//    (segment.ts).
// 2. Quadrilateral hypotheses (quad-hypotheses.ts): two lines at most 20° apart crossed by two more (90° ± 25° apart,
//    which leaves room for keystone and tilt), plus the colour candidate. Each is scored by edge
//    support along all four sides (gradients across the side, rounded corners skipped); a side
//    without support sinks the hypothesis. Hypotheses must be convex, inside the photo and have
//    the proportions of a card or a holder once rectified (rectify.ts). A hypothesis with a side
//    that has a stronger parallel edge just outside it, standing out from what lies beyond (the
//    card's cut outside a rim's inner step), has a twin with that side on the edge.
// 3. (outline-relations.ts, table-share.ts) A hypothesis inside another supported one is that one's printed frame or artwork: the
//    outermost wins. The card, for what follows, is the strongest outline, of those supported
//    nearly as well as the best (within MIN_SUPPORT_LEAD), that no card-shaped one swallows with
//    anything but table between them (not its art, which its border surrounds).
//    One that surrounds the card with table and has no card's proportions is the table's
//    pattern (grout, brick joints) and swallows nothing; so is one with a card's proportions
//    that shares two opposite sides with a card-shaped one inside it and adds only table beside
//    the other two (the card's own top and bottom closed by two lines of the table, or one side
//    closed by one line when that takes it further from every card format), unless what it adds
//    there has the colour seen just inside the shared sides, and not the table's: the card's
//    border running on round it, the inner outline its cuts closed by lines of its print
//    (addsBorder); or unless the inner one lies crosswise to it (half the card, cut across by a
//    line of its print, has a card's shape lying sideways).
//    An outermost hypothesis lying crosswise inside another, nearly all of it inside with a side
//    along one of the other's, is part of that card's print (a modern card's panel below its art
//    window): the other is the card, even when the part is the stronger, or when it is weaker but
//    better supported (a part cut off by a crease's ridge).
//    The winner with card just outside one of its sides (a line of its print closing it: an art
//    box's top, a text box's foot) gives way to a comparable outline of a card's shape over the
//    same place with the table just outside all four (tableOutside).
//    A card whose border has a textured table's colour (black on navy cloth) shows its cut only
//    as a thin line the coarse copy barely holds; the lines found are its print. The texture cue's
//    outline (segment.ts), snapped to the edges near it, is then the card when it holds every
//    outermost outline and adds a ring of the table's colour round the winner (byTexture).
//    Two different outermost hypotheses of similar support are two candidates for the card:
//    refused, never guessed. Other card-shaped outlines of the card's size apart from it (three
//    cards, or two with table between them) are several cards: refused as such, however clearly
//    one of them stands out, since which card was meant cannot be told.
// 4. A side of the winner on the edge of the card's inner panel, with the border's colour still
//    outside it (a white border on a light table), is moved out to the cut, or every side when
//    the outline is the panel's all round (border-sides.ts). Where that border runs on past the
//    photo's edge, the card touches the edge: refused. An outline on the panel's edge all round
//    with no side moved is read for a cut too faint to move it to (faintCutOutside), which
//    analyse-face.ts refuses unless it finds the border outside some other way.
// 5. The winner's sides are refined to a fraction of a pixel on the full working image
//    (refine-outline.ts).

import { faintCutOutside, sidesToCut } from "./border-sides";
import { gradientMap, houghLines, type SegmentSupport } from "./edges";
import { aspectOf, FORMAT_TOLERANCE, FORMATS, STANDARD_FORMAT } from "./formats";
import { boxOverlap, contains, crosswise, isConvex, type Line, type Point, type Quad, shareInside } from "./geometry";
import { downscaleToFit, type RgbaImage } from "./image";
import {
  addsBorder,
  addsTableBeside,
  borderRingAllRound,
  borderRoundPart,
  printLyingInside,
  ringedOverWinner,
  sharedSides,
  sharesASide,
  sharesOppositeSides,
  sidesOf,
  swungOntoWeaker,
} from "./outline-relations";
import { marginInsets, withoutMargins } from "./padding";
import {
  type Hypothesis,
  lineQuads,
  MAX_OPPOSITE_ANGLE_DEG,
  MIN_DISTINCT_SUPPORT,
  MIN_SIDE_SUPPORT,
  outwardTwin,
  STEEP_OPPOSITE_ANGLE_DEG,
  score,
  snapToEdges,
} from "./quad-hypotheses";
import { aspectsAcrossLenses, lensMatters, orientCard } from "./rectify";
import { type RefinedEdges, refineOutline } from "./refine-outline";
import { colourCue, textureCue } from "./segment";
import { between, type NotTableShare, notTableCounter, tableOutside } from "./table-share";

/** Why a card cut off by the photo's edge is refused. */
const TOUCHES_EDGE =
  "the card touches the edge of the photo; all four edges and a sliver of background must be visible";

/** Coarse resolution for finding the card (longer side). */
const COARSE_MAX_SIDE = 640;

const MAX_LINES = 28;

/** The winner's support must beat any other outermost hypothesis by this much. */
export const MIN_SUPPORT_LEAD = 0.15;

/**
 * A card's outline round a stronger part of its print (PART_INSIDE) is the card when its sides are
 * supported at least this much better than the part's. A baseball card creased across its middle,
 * under a purple lamp on black, had its lower half (landscape, cut off by the crease's light
 * ridge) read at strength 12.3 and support 0.93, the card round it at 9.5 and 1.00: the half won,
 * and its crease was refined as an edge and refused.
 */
const MIN_WHOLE_SUPPORT_GAIN = 0.05;

/**
 * An outline swallows another only when its worst side is at least this share as sharp as the
 * other's (a soft outline round the card, a shadow's edge, does not swallow it); of the outlines
 * round a part of the card's print (cardRoundPart), only those this sharp beside the sharpest.
 * A real Pokémon card on a white wall (GarrettMaury7921/pokemon_card_grader), its lower half cut
 * off by its text box's edge as the strongest outline (1.60 times as wide as tall): of the 11
 * outlines round it, the card's own (worst side 0.35 sharp) was the largest of those this sharp;
 * the strongest (0.21), its top on the print's edge just inside the cut, was refused for two
 * edges 27 px apart along its top.
 */
const WHOLE_SHARPNESS_SHARE = 0.6;

/** Share of a holder's area around the card that must differ from the table (its rim and label; a clear
 * slab shows the table through its window, but rim and label are about half of it). */
export const MIN_HOLDER_NOT_TABLE = 0.5;

/**
 * A holder's walls and label make it at least this many times the area of the strongest card-shaped
 * outline inside it: 1.28–1.63 on the four real photos of slabs read as holders (1.97 and 2.55 on a
 * fanned stack of cards and a card lying on another). A raw Yu-Gi-Oh! card's top and bottom cut,
 * closed by two lines crossing its sides at a few degrees, made a holder's shape only 1.07 and
 * 1.13 times the area of the card-shaped outline inside it on two real photos.
 */
const MIN_HOLDER_AREA_RATIO = 1.2;

/** An outline this much taller than wide, or more, has a graded-card holder's shape (slabs: 1.5–1.75). */
const HOLDER_MIN_ASPECT = 1.52;

/**
 * Within this (relative) of a card format's proportions, an outline on the coarse copy may be a
 * card: three times the tolerance on the refined outline (formats.ts), for the coarse pixels.
 */
const COARSE_FORMAT_TOLERANCE = 0.03;

/** How far (relative) an outline's proportions are from the nearest card format's. */
const formatMisfit = (aspect: number) =>
  Math.min(...FORMATS.map((format) => Math.abs(aspect - aspectOf(format)) / aspectOf(format)));

const nearAFormat = (aspect: number) => formatMisfit(aspect) <= COARSE_FORMAT_TOLERANCE;

/**
 * A card's outline is at most this many times the area of any card-shaped print inside it (its
 * printed frame covers two thirds of the card or more: 3 mm borders leave 84 %, 7 mm ones 76 %).
 */
const MAX_PRINT_AREA_RATIO = 1.5;

/** How far (coarse px) a card's own cut lies outside its panel on every side, at least (cardOfItsOwn). */
const OWN_CUT_MARGIN_PX = 1.5;

/**
 * An outline crosswise to another is part of its print when this share of it lies inside the
 * other, and one of its sides within PART_ALONG_SHARE of the other's width (4.4 mm of a card's 63)
 * of one of the other's: a modern card's panel lies 2 mm inside the border's inner edge.
 */
const PART_INSIDE = 0.9;

const PART_ALONG_SHARE = 0.07;

/** Two outlines are apart, two objects side by side, when at most this share of either lies inside the other. */
const MAX_SHARED_AREA = 0.1;

const apart = (p: Quad, q: Quad) => shareInside(p, q) <= MAX_SHARED_AREA && shareInside(q, p) <= MAX_SHARED_AREA;

/**
 * Two such outlines are two objects when at least this share of the path between them is table
 * (`between`), over a gap of at least MIN_GAP_MM: not a card's frame, as between its art box and
 * its text box (1.7 mm on a Pokémon card held in the hand, whose photo's frame is mostly card, so
 * that its colour cue takes the card's silver for table). 0.48 between two of five cards on dark
 * cloth, whose path crosses a third.
 */
const MIN_TABLE_BETWEEN = 0.25;

const MIN_GAP_MM = 3;

/**
 * Another card's sides stand out from beside them at least this much (distinct): 0.23–0.87 on the
 * other cards of seven real photos of several cards, -0.13 on a shadow's outline on a box's floor.
 */
const MIN_OTHER_CARD_DISTINCT = 0.1;

const SEVERAL_CARDS =
  "it shows several cards (outlines of a card's shape and size apart from each other); photograph one card on its own";

const SEVERAL_OBJECTS =
  "it shows several cards or other objects side by side, each outlined as clearly as a card; photograph one card on its own on a plain background";

/**
 * The strongest outline with less table than this outside its worst side gives way to a comparable
 * one of a card's proportions over the same place with at least TABLE_ALL_ROUND outside every
 * side. Drawn: a modern layout's silver border on a white table, the strongest outline's top on the
 * yellow panel (0 % table outside it; the card's own, 100 %), and a small card in a purple sleeve
 * (0 %, the sleeve's edge 100 %) were refused before and are graded within 0.2 points; of 990
 * drawn photos none lost its grade. Of the 86 local real photos two took another outline (38 % and
 * 1 % table outside before, 94 % and 88 % after), each then refused for what its card lacks.
 */
const PRINT_OUTSIDE = 0.5;

const TABLE_ALL_ROUND = 0.8;

/**
 * The texture cue's outline may be the card with each side supported this much (edge support),
 * under MIN_SIDE_SUPPORT: a black border's cut on navy cloth, a light line a pixel wide in the
 * working image, read 0.45 along its worst side on the coarse copy (its other sides 0.6–1.0);
 * 0.3 leaves room for a fainter cut, every other condition (byTexture) still holding, and the
 * refinement still to trace each side on the working image.
 */
const MIN_TEXTURE_SUPPORT = 0.3;

/**
 * ...when it is at least this many times the winner's area: the winner lies inside the card, on its
 * print along one side or more (a 3 mm border round the card's print: 1.19; along two sides, 1.08).
 */
const MIN_TEXTURE_RING = 1.04;

/** Of a card's proportions and no holder's (the card inside a holder, or a card on its own). */
const cardShaped = (h: Hypothesis) => h.aspect < HOLDER_MIN_ASPECT && nearAFormat(h.aspect);

/** Comparable: as a runner-up would be (locateCard). */
const competes = (h: Hypothesis, other: Hypothesis) =>
  h.support > other.support - MIN_SUPPORT_LEAD && h.strength > 0.8 * other.strength;

/**
 * Part of a card cut off by a line of its print: an outline lying crosswise to another, nearly
 * all inside it, with a side along one of the other's (a modern card's panel below its art
 * window, 57 × 40 mm, a card's shape lying sideways). On a busy table the card's cut may stand
 * out from what lies beside it too little to swallow such a part (a thin border on grass or
 * gravel), which is then a second outermost outline: the card is the outline round it.
 */
function partOf(inner: Hypothesis, outer: Hypothesis): boolean {
  return crosswiseInside(inner, outer) && sidesAlong(inner, outer) > 0;
}

/** `inner` lies crosswise to `outer`, PART_INSIDE of it or more inside it. */
const crosswiseInside = (inner: Hypothesis, outer: Hypothesis) =>
  crosswise(inner.quad, outer.quad) && shareInside(outer.quad, inner.quad) >= PART_INSIDE;

/** How many of `inner`'s sides lie along one of `outer`'s, both ends within PART_ALONG_SHARE of its width. */
function sidesAlong(inner: Hypothesis, outer: Hypothesis): number {
  const near = PART_ALONG_SHARE * Math.sqrt(outer.area / aspectOf(STANDARD_FORMAT));
  const lines = sidesOf(outer.quad);
  return [0, 1, 2, 3].filter((k) =>
    lines.some((line) =>
      [inner.quad[k] as Point, inner.quad[(k + 1) % 4] as Point].every(
        (p) => Math.abs(line.a * p.x + line.b * p.y - line.c) <= near,
      ),
    ),
  ).length;
}

/**
 * `inner` is print of the card `outer` outlines: it lies crosswise inside it, clear of its sides
 * (outline-relations.ts, printLyingInside: a panel, half the card below its art), or along one of
 * them only (partOf: an art window closed by the card's own cut along one side), or it is the
 * card's end cut off by a line of its print (cutOffByPrint).
 */
export function printOfCard(outer: Hypothesis, inner: Hypothesis): boolean {
  return (
    printLyingInside(outer.quad, inner.quad) ||
    (crosswiseInside(inner, outer) && sidesAlong(inner, outer) === 1) ||
    cutOffByPrint(inner, outer)
  );
}

/**
 * `inner` is the end of the card `outer` outlines, cut off by a line of its print: it lies
 * crosswise inside it, along three of its sides (the card's cut along its top and both sides, its
 * art window's foot across it), and has no card format's proportions (FORMAT_TOLERANCE, as a
 * refined outline must fit one), where `outer` has one's. Two cards side by side lie so in an
 * outline round both too, but each is a card, with a card's proportions. On a real photo of a
 * silver-bordered Pokémon trainer on a white table (`nmch-super_potion.png`, set 13 of the local
 * photos), its pale grey text box counted as table by the colour cue, the top half above the art
 * window's foot (1.364 times as wide as tall) was taken for the card, and the card round it
 * (1.391) for the table's pattern closing it.
 */
function cutOffByPrint(inner: Hypothesis, outer: Hypothesis): boolean {
  return (
    crosswiseInside(inner, outer) &&
    sidesAlong(inner, outer) === 3 &&
    formatMisfit(inner.aspect) > FORMAT_TOLERANCE &&
    formatMisfit(outer.aspect) <= FORMAT_TOLERANCE
  );
}

/**
 * The first outline taken for the card (locateCard), of those `accepted` (strongest first): the
 * strongest of about a card's shape (under 1.5 times as tall as wide), about as well supported as
 * the best of them (MIN_SUPPORT_LEAD), that is not print inside a card-shaped outline
 * (`insideCard`). When every one so supported is (a white Magic card's frame on light wood, and
 * the outlines closed by its frame along one side and its cut along the others, where the wood's
 * grain withdrew votes from the cut's left side: supported along 78 % of it), the strongest of a
 * card's shape that is not, however supported, unless it holds cards (holdsCards): four cards
 * laid out in two rows make a card's shape round them.
 */
export function firstCard(
  accepted: readonly Hypothesis[],
  insideCard: (h: Hypothesis) => boolean,
): Hypothesis | undefined {
  const bestSupport = Math.max(0, ...accepted.filter((h) => h.aspect < 1.5).map((h) => h.support));
  return (
    accepted.find((h) => h.aspect < 1.5 && h.support >= bestSupport - MIN_SUPPORT_LEAD && !insideCard(h)) ??
    accepted.find((h) => cardShaped(h) && !insideCard(h) && !holdsCards(h, accepted))
  );
}

/**
 * Two outlines of a card's shape lie inside `outer` in its orientation, apart from each other,
 * each an eighth to half of its area: `outer` is round several cards. (A card's art window and
 * text box lie crosswise inside it.)
 */
function holdsCards(outer: Hypothesis, outlines: readonly Hypothesis[]): boolean {
  const held = outlines.filter(
    (h) =>
      h !== outer &&
      cardShaped(h) &&
      !crosswise(outer.quad, h.quad) &&
      h.area >= outer.area / 8 &&
      h.area <= outer.area / 2 &&
      contains(outer.quad, h.quad, 2),
  );
  return held.some((h, i) => held.slice(i + 1).some((other) => apart(h.quad, other.quad)));
}

/**
 * The card round `part`, the strongest outermost outline, when `part` is a part of its print
 * (partOf): an outermost outline round it that competes with it, or is weaker but better supported
 * along its sides (a part cut off by a crease, whose light ridge is sharper than the cut), or, when
 * the part has no card's proportions (it could not be graded itself), one of a card's shape
 * supported as well. Undefined when there is none.
 *
 * Of several such outlines (the lines near the card's sides combine into many), the largest of those
 * whose sides stand out from what lies beside them (MIN_DISTINCT_SUPPORT) and are as sharp as an
 * outline must be to swallow another (WHOLE_SHARPNESS_SHARE of the sharpest's) is the card: its
 * sides lie on the cut, outside lines of its print, and a soft line outside the cut (a shadow's
 * edge) is not sharp enough. Without one that stands out, the strongest.
 */
export function cardRoundPart(part: Hypothesis, outermost: readonly Hypothesis[]): Hypothesis | undefined {
  const roundIt = (h: Hypothesis) =>
    competes(h, part) ||
    h.support >= part.support + MIN_WHOLE_SUPPORT_GAIN ||
    (!nearAFormat(part.aspect) && cardShaped(h) && h.support >= part.support);
  const wholes = outermost.filter((h) => h !== part && partOf(part, h) && roundIt(h));
  const standing = wholes.filter((h) => h.distinct() >= MIN_DISTINCT_SUPPORT);
  const sharpest = Math.max(0, ...standing.map((h) => h.sharpness));
  const sharp = standing.filter((h) => h.sharpness >= WHOLE_SHARPNESS_SHARE * sharpest);
  return (
    sharp.reduce<Hypothesis | undefined>((best, h) => (!best || h.area > best.area ? h : best), undefined) ?? wholes[0]
  );
}

export interface CardOutline extends RefinedEdges {
  /** The table's colour. */
  background: [number, number, number];
  /** Worst side's edge support of the winner (0–1), and of the best other outermost hypothesis. */
  support: number;
  runnerUpSupport: number | null;
  /** How many quadrilateral hypotheses were scored. */
  hypotheses: number;
}

export type OutlineResult =
  | { ok: true; outline: CardOutline }
  | { ok: false; reason: string; holder?: { aspect: number } };

/** The card found, before its sides are refined (refine-outline.ts). */
export interface LocatedCard {
  /** The card's quadrilateral in the image's pixels, in photo order. */
  quad: Quad;
  /** How far (the image's pixels) each side is looked for either side of the quadrilateral's. */
  reach: number;
  background: CardOutline["background"];
  support: number;
  runnerUpSupport: number | null;
  hypotheses: number;
  /**
   * The outline may be the card's panel, a faint cut outside it (border-sides.ts,
   * faintCutOutside): analyse-face.ts refuses the photo unless it finds the border outside.
   */
  faintCut: boolean;
}

export type LocateResult = { ok: true; card: LocatedCard } | { ok: false; reason: string; holder?: { aspect: number } };

/** `lensFocal`: the lens's focal length in pixels of `image`, when the photo's EXIF gives it (rectify.ts). */
export function findCardOutline(image: RgbaImage, lensFocal: number | null = null): OutlineResult {
  const located = locateCard(image, lensFocal);
  if (!located.ok) return located;
  const { quad, reach, ...found } = located.card;
  const refined = refineOutline(image, quad, reach);
  if (!refined.ok) return refined;
  return { ok: true, outline: { ...refined.outline, ...found } };
}

/**
 * Where no outline is supported all round: the most two opposite sides converge (degrees) on the
 * strongest outline supported all round once lines up to STEEP_OPPOSITE_ANGLE_DEG apart are paired
 * as opposite sides, when they converge by more than an outline is looked for with
 * (MAX_OPPOSITE_ANGLE_DEG); else null. Only the refusal's wording rests on it: a card photographed
 * so steeply is told from one that does not stand out from the table.
 */
function steeperOutline(
  map: ReturnType<typeof gradientMap>,
  lines: ReturnType<typeof houghLines>,
  shortSide: number,
  sideCache: Map<string, SegmentSupport>,
  focal: number | null,
): number | null {
  let best: { strength: number; apart: number } | null = null;
  for (const quad of lineQuads(lines, shortSide * 0.1, STEEP_OPPOSITE_ANGLE_DEG)) {
    const apart = Math.max(sidesApartDeg(quad, 0), sidesApartDeg(quad, 1));
    if (apart <= MAX_OPPOSITE_ANGLE_DEG) continue;
    const hypothesis = score(map, quad, sideCache, focal);
    if (!hypothesis || hypothesis.support < MIN_SIDE_SUPPORT) continue;
    if (!best || hypothesis.strength > best.strength) best = { strength: hypothesis.strength, apart };
  }
  return best?.apart ?? null;
}

/** The angle (degrees, 0–90) between a quadrilateral's side k (corner k → k + 1) and its opposite side. */
function sidesApartDeg(quad: Quad, k: number): number {
  const direction = (i: number) => {
    const p = quad[i % 4] as Point;
    const q = quad[(i + 1) % 4] as Point;
    return Math.atan2(q.y - p.y, q.x - p.x);
  };
  const difference = Math.abs(direction(k) - direction(k + 2)) % Math.PI;
  return (Math.min(difference, Math.PI - difference) * 180) / Math.PI;
}

/** The card's quadrilateral, from the photo's lines and colours (see the file's head), unrefined. */
export function locateCard(image: RgbaImage, lensFocal: number | null = null): LocateResult {
  // A screenshot's flat margins round the photo it shows are no part of the scene (padding.ts):
  // the card is looked for with them painted over by the photo's own edge.
  return locateInPhoto(withoutMargins(image, marginInsets(image)), lensFocal);
}

/** locateCard on a photo without margins. */
function locateInPhoto(image: RgbaImage, lensFocal: number | null): LocateResult {
  const coarse = downscaleToFit(image, COARSE_MAX_SIDE);
  const scale = image.width / coarse.width;
  const focal = lensFocal === null ? null : lensFocal / scale;
  const map = gradientMap(coarse);
  const colour = colourCue(coarse);
  const shortSide = Math.min(coarse.width, coarse.height);
  const lines = houghLines(map, MAX_LINES, Math.round(shortSide * 0.08));

  const quads: Quad[] = [];
  if (colour.quad) quads.push(colour.quad);
  quads.push(...lineQuads(lines, shortSide * 0.1));
  const scored: Hypothesis[] = [];
  // Hypotheses built from the same lines share sides: each side is read once.
  const sideCache = new Map<string, SegmentSupport>();
  for (const quad of quads) {
    const hypothesis = score(map, quad, sideCache, focal);
    if (hypothesis) scored.push(hypothesis);
  }
  // An outline with a side on a line of the card's print just inside its cut (a rim's inner step)
  // has a twin with that side moved out to the cut (outwardTwin), a hypothesis of its own when it
  // is supported all round as one must be.
  // A twin with the corners of a hypothesis already read (to 0.01 px) is that hypothesis.
  const offsets = new Map<string, number | null>();
  const quadKey = (quad: Quad) => quad.map((p) => `${p.x.toFixed(2)},${p.y.toFixed(2)}`).join(" ");
  const known = new Set(quads.map(quadKey));
  for (const h of scored.slice()) {
    if (h.support < MIN_SIDE_SUPPORT) continue;
    const quad = outwardTwin(map, h.quad, lines, sideCache, offsets);
    if (!quad || known.has(quadKey(quad))) continue;
    known.add(quadKey(quad));
    const twin = score(map, quad, sideCache, focal);
    if (twin && twin.support >= MIN_SIDE_SUPPORT) scored.push(twin);
  }
  const accepted = scored.filter((h) => h.support >= MIN_SIDE_SUPPORT).sort((p, q) => q.strength - p.strength);
  if (accepted.length === 0) {
    if (colour.touchesBorder)
      return {
        ok: false,
        reason: TOUCHES_EDGE,
      };
    const steep = steeperOutline(map, lines, shortSide, sideCache, focal);
    if (steep !== null) {
      return {
        ok: false,
        reason: `the card's outline converges too steeply to be read: two of its opposite edges lie ${Math.round(steep)}° apart (at most ${MAX_OPPOSITE_ANGLE_DEG}° are read; a card square to the lens shows them parallel), so it was photographed at too steep a slant; photograph it from nearer straight above`,
      };
    }
    return {
      ok: false,
      reason:
        scored.length === 0
          ? "no card found in the photo: no four of its straight lines close an outline of a card's size and shape (the card's edge may barely stand out from the background, or run out of the photo)"
          : "no card found in the photo: no outline has a straight edge along all four sides (the card's edge may barely stand out from the background)",
    };
  }
  // An outline inside another, comparably sharp one is its printed frame or artwork (or a mix of
  // the card's edges and the frame's lines): the outermost wins. A soft outline around the card
  // (a shadow's edge) does not swallow it.
  // Only an outline whose sides stand out from what lies beside them (not a line through texture
  // extending two of the card's sides) can swallow another, and not one that is the other with one
  // side swung off it onto a weaker line (swungOntoWeaker).
  const swallows = (outer: Hypothesis, inner: Hypothesis) =>
    outer !== inner &&
    outer.area > inner.area * 1.01 &&
    outer.sharpness >= WHOLE_SHARPNESS_SHARE * inner.sharpness &&
    contains(outer.quad, inner.quad, 2) &&
    outer.distinct() >= MIN_DISTINCT_SUPPORT &&
    !swungOntoWeaker(outer, inner);
  // An outline that swallows the card, has no card's proportions and encloses table around it
  // is the table's own pattern (tiles, bricks, a printed mat) closing a rectangle around the card,
  // or the card's sides closed by such a line: neither the card nor a holder (a holder's rim and
  // label are not table). It is set aside, so it swallows nothing. A holder is told around the
  // strongest card-shaped outline (the card inside it, or its art).
  const strongestCard = accepted.find((h) => h.aspect < 1.5);
  // Built on first use: most photos have no outline to ask about.
  let counter: NotTableShare | undefined;
  const notTableShare: NotTableShare = (outer, inner) => {
    counter ??= notTableCounter(colour.table, coarse.width);
    return counter(outer, inner);
  };
  // An outline without a holder's shape cannot be a holder, and neither can one that shares two
  // opposite sides with the card inside it (a holder's rim surrounds the card on every side), so
  // the table around the card is read across the table's own lines for them (segment.ts,
  // looseTable: a brick beyond a joint counts as table); any other keeps the strict reading, so
  // a holder's rim is never taken for table.
  let looseCounter: NotTableShare | undefined;
  const patternShare = (outer: Hypothesis, inner: Hypothesis, innerSides?: Line[]) => {
    const couldBeHolder =
      outer.aspect >= HOLDER_MIN_ASPECT && !(innerSides && sharesOppositeSides(outer.quad, innerSides));
    if (couldBeHolder) return notTableShare(outer.quad, inner.quad);
    looseCounter ??= notTableCounter(colour.looseTable(), coarse.width);
    return looseCounter(outer.quad, inner.quad);
  };
  // The table's pattern is told around the card, and the strongest card-shaped outline is often
  // the card's art (its print is sharper than the cut against the table): the card is the
  // strongest outline that no card-shaped one swallows with anything but table between them. The
  // art is swallowed by the card (its border is not table), the card only by the table's pattern.
  // Only an outline about as well supported as the best one is that card: two joints of a
  // brick table closing a dark card's own top and bottom into an outline 1.33 times as wide as
  // tall, its sides supported along 65 % of their length, were otherwise taken for it (stronger at
  // their worst than the card's shadowed side, and swallowed by nothing), and the card's outline,
  // supported all round, was set aside inside it.
  // Set aside as print inside a card-shaped outline: what lies between them is not table.
  const insideCard = (h: Hypothesis) =>
    accepted.some((o) => cardShaped(o) && swallows(o, h) && patternShare(o, h) >= MIN_HOLDER_NOT_TABLE);
  // The colour cue may count a card's border as table: a threshold set between the table and a
  // dark surface beyond it (a desk's black edge across the photo's frame) takes in a yellow border
  // as table too (Otsu's 129 levels against the yellow's 106 from the table's colour). On two real
  // photos of yellow-bordered Pokémon cards on a white wall above such a desk
  // (GarrettMaury7921/pokemon_card_grader), the card's panel inside its border was so taken for the
  // card, the card round it for the table's pattern, and the photos refused for two edges 24 and
  // 28 px apart. The first outline found, when a card-shaped one at least as well supported
  // swallows it and shows a border ring all round (borderRingAllRound), gives way to the best
  // supported (then strongest) of those.
  const first = firstCard(accepted, insideCard);
  const ringed = first
    ? accepted.filter(
        (o) => cardShaped(o) && swallows(o, first) && o.support >= first.support && borderRingAllRound(coarse, o.quad),
      )
    : [];
  const part =
    ringed.length > 0
      ? ringed.reduce((best, o) =>
          o.support > best.support || (o.support === best.support && o.strength > best.strength) ? o : best,
        )
      : (first ?? strongestCard);
  // That outline may be part of the card, some of its sides on the card's cut and the others on
  // its art's edge, with the border round it counted as table by the colour cue (a white border
  // beside white joints): a card-shaped outline round it, not itself set aside so, that adds a
  // ring of the colour just inside the shared sides (borderRoundPart) is the card: the best
  // supported of them, then the strongest.
  const round = part
    ? accepted.filter(
        (o) =>
          cardShaped(o) &&
          swallows(o, part) &&
          borderRoundPart(coarse, o.quad, part.quad, colour.background) &&
          !insideCard(o),
      )
    : [];
  const card = round.length > 0 ? round.reduce((best, o) => (o.support > best.support ? o : best)) : part;
  const pattern = new Set<Hypothesis>();
  if (card) {
    const cardSides = sidesOf(card.quad);
    for (const h of accepted) {
      if (cardShaped(h) || !swallows(h, card)) continue;
      if (patternShare(h, card, cardSides) < MIN_HOLDER_NOT_TABLE) pattern.add(h);
      else {
        // The card's sides carried on to a line of what it lies on (a sheet's edge): what the
        // outline adds is the colour just outside the card's sides (addsTableBeside), whatever
        // the photo's frame holds. No holder lies on the card's sides, and an outline of no
        // card's shape is not the card, so nothing more is asked.
        const shared = sharedSides(h.quad, cardSides);
        if (shared && addsTableBeside(coarse, h.quad, card.quad, shared)) pattern.add(h);
      }
    }
    // With a card's proportions, an outline around the card is the table's pattern only when it
    // shares two opposite sides with a card-shaped one inside it and what it adds beside the
    // other two is table: the card's own top and bottom (or sides) closed by two lines of the
    // table. A card's own outline shares no side with its art's, and its border is
    // not table. Each such outline is paired with every card-shaped one (hundreds): the cheapest
    // tests first (the area test is swallows' own, early), each inner outline's sides worked out once.
    // One side closed by a line only counts when it takes the outline further from every card
    // format than the one inside it: an inner outline with one side on the wrong line (a worn
    // edge, a shadow) is not to set aside the card's own outline around it.
    // What the outline adds must not be the card's border running on round the card: on a table
    // as colourful as the card (stickers of its yellow beside a yellow border), the colour cue
    // counts the border as table, and the card's cut would be taken for lines closing its print.
    const closesCardSides = (h: Hypothesis, g: Hypothesis, sides: Line[]) => {
      const shared = sharedSides(h.quad, sides);
      if (!shared) return null;
      return shared.kind === "two" || formatMisfit(h.aspect) > formatMisfit(g.aspect) ? shared : null;
    };
    const shaped = accepted.filter((h) => cardShaped(h)).map((h) => ({ h, sides: sidesOf(h.quad) }));
    // The "card" lying crosswise inside `h` is no part of `h`'s print when a card-shaped outline
    // of its own orientation, at least as well supported as `h`, lies round it inside `h` with
    // table between them: the card's own cut round its panel, `h` lines of the table round both
    // (a portrait card on bricks, whose joints close a landscape outline round it).
    const cardOfItsOwn = (h: Hypothesis) =>
      shaped.some(
        ({ h: g }) =>
          g !== h &&
          g !== card &&
          !crosswise(g.quad, card.quad) &&
          contains(g.quad, card.quad, -OWN_CUT_MARGIN_PX) &&
          g.support >= h.support &&
          swallows(g, card) &&
          swallows(h, g) &&
          patternShare(h, g) < MIN_HOLDER_NOT_TABLE,
      );
    for (const { h } of shaped) {
      if (pattern.has(h) || !swallows(h, card)) continue;
      // Far larger than the card, with table between: lines of things on the table (pencils, a
      // laptop's edge, the table's own edge, its texture) closing a rectangle around it. A card's
      // cut never lies that far out from its own print. Unless the "card" lies crosswise inside it,
      // clear of all four of its sides, along one of them, or along three with no card's
      // proportions (printOfCard): then it is part of the print of the card that outline is (a
      // modern card's panel below its art window, round its text box: a card's shape lying
      // sideways; its art window closed by its left cut, on a real photo of a silver-bordered
      // Pokémon trainer on a blue playmat; its top end above its art window's foot, on another
      // on a white table), whose border and art the colour cue took for table (a silver border on
      // grey grass; the silver, lit, as light as the playmat's sheen; a pale text box). Taken for
      // the card, that panel was graded 28 points off. But not when the card
      // has a cut of its own round it inside that outline (cardOfItsOwn): a drawn Yu-Gi-Oh! card
      // on bricks, its body the "card", the joints' landscape outline round it won, supported
      // 0.63 against its own cut's 1.00.
      if (
        h.area > MAX_PRINT_AREA_RATIO * card.area &&
        patternShare(h, card) < MIN_HOLDER_NOT_TABLE &&
        !(printOfCard(h, card) && !cardOfItsOwn(h))
      ) {
        pattern.add(h);
        continue;
      }
      const closesCard = shaped.some((g) => {
        // An inner outline lying crosswise is part of the card, not the card: half a standard
        // card cut across by a line of its print (its art box's edge: about 63 × 44 mm, 1.43) has
        // a card's shape lying sideways, and shares the card's top (or bottom) and both sides.
        if (g.h === h || h.area <= g.h.area * 1.01 || crosswise(h.quad, g.h.quad)) return false;
        const shared = closesCardSides(h, g.h, g.sides);
        return (
          shared !== null &&
          swallows(h, g.h) &&
          patternShare(h, g.h) < MIN_HOLDER_NOT_TABLE &&
          !addsBorder(coarse, h.quad, g.h.quad, shared, colour.background)
        );
      });
      if (closesCard) pattern.add(h);
    }
  }
  const candidates = pattern.size > 0 ? accepted.filter((h) => !pattern.has(h)) : accepted;
  const outermost = candidates.filter((h) => !candidates.some((other) => swallows(other, h)));
  // Table between the two, over a gap of MIN_GAP_MM at the card's scale.
  const separated = (other: Quad, card: Hypothesis) => {
    const gap = between(colour.table, coarse.width, other, card.quad);
    const pxPerMm = Math.sqrt(card.area / (STANDARD_FORMAT.width_mm * STANDARD_FORMAT.height_mm));
    return gap.table >= MIN_TABLE_BETWEEN && gap.gap >= MIN_GAP_MM * pxPerMm;
  };
  // Other cards beside `card`: card-shaped outlines of about its size, apart from it and from each
  // other, with sides that stand out from what lies beside them (not lines of light and shadow
  // across a box's floor). Three of them, or two with table between them, are several cards (a
  // card's own art box and text box are two such outlines, with its frame between them).
  const severalCards = (card: Hypothesis) => {
    const cards = [card];
    for (const h of accepted) {
      if (cards.length >= 3) break;
      if (
        cardShaped(h) &&
        h.area >= card.area / 2 &&
        h.area <= card.area * 2 &&
        cards.every((other) => apart(h.quad, other.quad)) &&
        h.distinct() >= MIN_OTHER_CARD_DISTINCT
      )
        cards.push(h);
    }
    const second = cards[1];
    return cards.length >= 3 || (second !== undefined && separated(second.quad, card));
  };
  // A holder is an outermost outline of a holder's shape that swallows the strongest card-shaped
  // one (the card inside it) and is itself not table around the card: a holder's rim and label
  // differ from the table, while a line through the table's texture that merely extends two of the
  // card's sides encloses table. Its walls and label make it MIN_HOLDER_AREA_RATIO times the card's
  // area at least.
  // A holder's shape is not claimed from a guessed lens where the slant makes the lens matter
  // (rectify.ts): a raw card seen steeply through an ultra-wide lens reads 1.6 with the guess.
  const holder = strongestCard
    ? outermost.find(
        (h) =>
          h.aspect >= HOLDER_MIN_ASPECT &&
          !(focal === null && lensMatters(aspectsAcrossLenses(h.quad, coarse.width, coarse.height))) &&
          swallows(h, strongestCard) &&
          notTableShare(h.quad, strongestCard.quad) >= MIN_HOLDER_NOT_TABLE &&
          h.area >= MIN_HOLDER_AREA_RATIO * strongestCard.area,
      )
    : undefined;
  if (holder && strongestCard) {
    // Several cards laid out together make a holder's shape with something other than table
    // around the strongest card: the other cards. A holder's label is not card-shaped.
    if (severalCards(strongestCard)) return { ok: false, reason: SEVERAL_CARDS };
    // A holder's walls surround the card inside it on every side. An outline of a holder's shape
    // that shares a side with the card-shaped one inside it is lines of one card's print closing
    // it (a panel's or an art box's edge carried on to a rim's inner step and a shadow's edge),
    // and the search goes on (HOLDER_SHARES_NO_SIDE).
    if (!sharesASide(holder.quad, strongestCard.quad, coarse.width, coarse.height)) {
      return { ok: false, reason: "a graded-card holder", holder: { aspect: holder.aspect } };
    }
  }
  const strongest = outermost[0];
  if (!strongest) return { ok: false, reason: "no card found in the photo" };
  let winner = cardRoundPart(strongest, outermost) ?? strongest;
  // Two outlines over the same card, one with a side on the cut and the other with a side on
  // its print just inside (a panel's or an art box's edge, sharper than the cut against a wall):
  // the stronger wins above, print and all. It gives way to a ringed outline over it
  // (ringedOverWinner). The ring is looked for on the outline as found and with its sides on a
  // panel's edge moved out to the cut (sidesToCut, as the winner's are below): a white Magic card's
  // black border on grey wood, its frame's edge far sharper than the cut, had its top side on
  // the frame in every outline, and the strongest its right side on the art box's edge too.
  const ringAllRound = (quad: Quad) => borderRingAllRound(coarse, quad);
  const ringedOnceMoved = (quad: Quad) => {
    const moved = sidesToCut(coarse, quad);
    return moved !== null && "quad" in moved && isConvex(moved.quad) && ringAllRound(moved.quad);
  };
  winner = ringedOverWinner(winner, outermost, cardShaped, ringAllRound, ringedOnceMoved);
  // With card outside one of its sides (a line of the print closing it), the winner gives way to a
  // comparable outline of a card's shape over the same place with the table outside all round.
  const outside = (h: Hypothesis) => tableOutside(colour.table, coarse.width, coarse.height, h.quad);
  if (outside(winner) < PRINT_OUTSIDE) {
    const current = winner;
    winner =
      outermost.find(
        (h) =>
          h !== current &&
          boxOverlap(h.quad, current.quad) >= 0.6 &&
          competes(h, current) &&
          nearAFormat(h.aspect) &&
          outside(h) >= TABLE_ALL_ROUND,
      ) ?? current;
  }
  // A card whose border is as dark and plain as a textured table is (the texture cue): its cut
  // shows only as a thin line the coarse copy barely holds, and the outlines found are its print.
  // The texture cue's outline, snapped to the edges near it, is the card when it has a card's
  // proportions, is supported along every side at least MIN_TEXTURE_SUPPORT, holds every
  // outermost outline, adds a ring round the winner at least MIN_TEXTURE_RING times its area,
  // and that ring is mostly of the table's colour (a border of another colour is found by it).
  // The cue's outlines are tried in its order, the first that holds taken.
  let byTexture = false;
  for (const region of textureCue(map, colour.table)) {
    const snapped = snapToEdges(map, region);
    // Read afresh: the side cache holds readings cut short below MIN_SIDE_SUPPORT.
    const textured = snapped && score(map, snapped, new Map(), focal, MIN_TEXTURE_SUPPORT);
    byTexture =
      !!textured &&
      textured.strength > 0 &&
      nearAFormat(textured.aspect) &&
      textured.area >= MIN_TEXTURE_RING * winner.area &&
      outermost.every((h) => contains(textured.quad, h.quad, 2)) &&
      notTableShare(textured.quad, winner.quad) < MIN_HOLDER_NOT_TABLE;
    if (byTexture && textured) {
      winner = textured;
      break;
    }
  }
  // Another object: an outermost outline that overlaps the winner little, and is no part of it.
  // Outlines that overlap it closely are the same card placed less exactly, and lose on strength.
  const runnerUp =
    outermost.find(
      (h) =>
        h !== winner &&
        boxOverlap(h.quad, winner.quad) < 0.6 &&
        !partOf(h, winner) &&
        !(byTexture && contains(winner.quad, h.quad, 2)),
    ) ?? null;
  if (runnerUp && competes(runnerUp, winner)) {
    if (apart(runnerUp.quad, winner.quad) && separated(runnerUp.quad, winner))
      return { ok: false, reason: SEVERAL_OBJECTS };
    return {
      ok: false,
      reason: `two different outlines could be the card (edge support ${round2(winner.support)} and ${round2(runnerUp.support)}), so its edge cannot be told: a holder's or a sleeve's walls, another card touching it, or lines of the table or of its print compete with it; photograph the raw card on its own on a plain background`,
    };
  }
  // Other cards beside the winner, however much sharper its outline: which card was meant cannot be told.
  if (severalCards(winner)) return { ok: false, reason: SEVERAL_CARDS };

  // A side on the edge of the card's inner panel, with the border still outside it, is moved out
  // to the cut (border-sides.ts) when that brings the outline nearer a card format.
  let chosen = winner.quad;
  const toCut = sidesToCut(coarse, winner.quad);
  // A side on the panel's edge whose border runs on past the photo's edge: the card's cut there is
  // outside the photo (a scan cropped to the card's print, its cream border cut off at the top,
  // was otherwise graded on its picture's black frame as the card, 13 points off).
  if (toCut && "runsOffPhoto" in toCut) return { ok: false, reason: TOUCHES_EDGE };
  if (toCut) {
    const aspect = orientCard(toCut.quad, coarse.width, coarse.height, focal).aspect;
    const inPhoto = toCut.quad.every(
      (p) => p.x >= 1 && p.y >= 1 && p.x <= coarse.width - 1 && p.y <= coarse.height - 1,
    );
    // Nearer a card format than before; or, when every side was moved on the colour sides on the
    // cut show inside them, a format's proportions within the refined outline's tolerance: an
    // outline on the panel's edge on three sides and the cut on the fourth can happen to fit
    // another format (a standard card's read 1.458, the small format's shape) better than the
    // card's own. Moved on the colour outside all four sides, it must come nearer a format: on a
    // table whose pattern lies close around the card, that colour is the table's.
    const fits =
      formatMisfit(aspect) < formatMisfit(winner.aspect) ||
      (toCut.fromCuts && formatMisfit(aspect) <= FORMAT_TOLERANCE);
    if (isConvex(toCut.quad) && nearAFormat(aspect) && fits) {
      // The border's colour runs past the photo's edge: the card's cut there is outside the photo,
      // and the outline found inside it is its frame's edge (a real photo of a black border on
      // wood, turned 12° so that a corner passed the edge, was otherwise read with that side on
      // its frame, and refused only because no frame was found inside it).
      if (!inPhoto) return { ok: false, reason: TOUCHES_EDGE };
      chosen = toCut.quad;
    }
  }
  return {
    ok: true,
    card: {
      quad: chosen.map((p) => ({ x: p.x * scale, y: p.y * scale })) as Quad,
      reach: Math.max(6, Math.ceil(2.5 * scale)),
      background: colour.background,
      support: winner.support,
      runnerUpSupport: runnerUp ? runnerUp.support : null,
      hypotheses: scored.length,
      faintCut: chosen === winner.quad && faintCutOutside(coarse, winner.quad),
    },
  };
}

const round2 = (value: number) => Math.round(value * 100) / 100;
