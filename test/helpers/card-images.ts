// Draws photos of cards with known geometry, for testing the grading engine against ground truth:
// a card (63 × 88 mm unless told) with rounded corners and a printed frame of known border widths, rotated and
// placed on a textured, unevenly lit background, with sensor noise. Edges are anti-aliased from
// the exact signed distance, so the drawn truth is sub-pixel exact.
import { encode as encodeJpegJs } from "jpeg-js";
import type { RgbaImage } from "../../src/grading/engine/image";

type Rgb = readonly [number, number, number];

export interface CardScene {
  canvasWidth: number;
  canvasHeight: number;
  /** Card width in canvas pixels; the height follows from the card's size (88/63 by default). */
  cardWidth: number;
  /** The card's size in mm: 63 × 88 (standard) unless another format is wanted (59 × 86 Japanese size). */
  cardMm?: { width: number; height: number };
  /** Card centre as a share of the canvas (0.5, 0.5 = centred). */
  centerX?: number;
  centerY?: number;
  /** Rotation in degrees, clockwise. */
  rotation?: number;
  /** Border widths in millimetres (the printed frame's distance from each card edge). */
  borders: { left: number; right: number; top: number; bottom: number };
  borderColor: Rgb;
  /**
   * A bevelled rim (a Yu-Gi-Oh! card's): the border shades from `borderColor` at the cut to this
   * colour at the frame, evenly across each side's width, instead of one flat colour.
   */
  bevel?: Rgb;
  /** Art inside the frame: a base colour and a seed for its pattern. */
  artColor: Rgb;
  background: Rgb;
  /** "plain", "wood" (grain stripes) or "cloth" (fine weave). */
  texture?: "plain" | "wood" | "cloth";
  /** Brightness falls off by up to this share across the canvas (uneven lighting). */
  lightFalloff?: number;
  /** Standard deviation of Gaussian sensor noise, in 8-bit levels. */
  noise?: number;
  seed?: number;
  /** Card height / width; that of `cardMm` unless a wrong-shaped card is wanted. */
  aspect?: number;
  /** Drawn wear: whitened corners (radius, mm), white edge chips (count), light scratches (count). */
  wear?: {
    cornerWhitening?: number;
    edgeChips?: number;
    /**
     * Draw the edge chips as material missing from the edge (the table shows through) instead of
     * whitened stock: on a white border whitening cannot be seen, a chip out of the edge can.
     */
    chipsMissing?: boolean;
    scratches?: number;
    /** Creases: lines across the whole card, art and border, a dark fold beside a light ridge. */
    creases?: number;
  };
  /** Draw the card inside a graded-card holder (clear plastic, label on top). */
  holder?: boolean;
  /**
   * A sheet of the given colour under the card, reaching past each of its edges by `margins` (mm),
   * its corners rounded by `cornerRadius` (mm, 1 unless told): a sleeve's coloured back (a deck
   * protector, seen through its clear front), or another card beneath this one, offset, and turned
   * by `turn` degrees (clockwise, about its own centre).
   */
  underlay?: {
    color: Rgb;
    margins: { left: number; right: number; top: number; bottom: number };
    cornerRadius?: number;
    turn?: number;
  };
  /**
   * Something lying over the card and the table, drawn last: an ellipse of `color` centred
   * (`x`, `y`) mm from the card's centre along its own axes, with half-axes `rx`, `ry` mm (a thumb
   * holding the card).
   */
  occluder?: { x: number; y: number; rx: number; ry: number; color: Rgb };
  /**
   * Straight things lying on the table around the card (pencils, a ruler, a phone's edge): bars of
   * `color` from `from` to `to` (shares of the canvas), `width` pixels across, shaded round like
   * a pencil, their sides blurred over `soft` pixels (1 unless told: out of focus, nearer the
   * lens). Drawn on the table, under the card and its shadow.
   */
  clutter?: {
    from: readonly [number, number];
    to: readonly [number, number];
    width: number;
    color: Rgb;
    soft?: number;
  }[];
  /** Multiplies every pixel (0.15 = a very dark photo). */
  exposure?: number;
  /** Box blur radius in pixels (an out-of-focus photo). */
  blur?: number;
  /** A soft drop shadow cast down and right, as a share of the card width (0.04 = 4 %). */
  shadow?: number;
  /**
   * The shadow's soft edge, as a share of its offset (0.6 unless told): a lamp close above the
   * card casts a narrow, hard one lying against the cut.
   */
  shadowEdge?: number;
  /**
   * The card's own edge seen beside its face (its dark core, and a hard contact shadow under it):
   * a band of `color`, `mm` wide, outside the cut along the card's right and bottom sides. With
   * `wedge`, the band narrows from `mm` at the bottom-right corner to none at the far end of each
   * side (the card lifted at that corner).
   */
  edgeBand?: { mm: number; color: Rgb; wedge?: boolean };
  /**
   * A thin light line just inside the cut all round, `mm` wide, of `color`, over the border: the
   * card's paper seen at its cut, or the cut whitened by wear (an old black-bordered card's).
   */
  cutLine?: { mm: number; color: Rgb };
  /**
   * Lateral chromatic aberration: the red channel's image shrunk and the blue's enlarged about the
   * photo's centre, each edge moved this many px at the photo's corners (a lens that images the
   * colours at slightly different sizes; phones mostly correct it).
   */
  lateralAberration?: number;
  /** Mild keystone: the card's top edge is this share narrower than its bottom edge. */
  keystone?: number;
  /**
   * A pinhole camera instead of `keystone`: the card tilted `tiltDeg` about its horizontal
   * midline (its top edge away from the lens), seen through a lens of focal length `focalPx`
   * (pixels) whose principal point is the canvas centre; untilted, the card is drawn at its size.
   * A true perspective, in which the card's proportions come back only with the right focal length.
   */
  camera?: { focalPx: number; tiltDeg: number };
  /** Corner radius in mm (3 for a new card; worn corners are rounded further). */
  cornerRadius?: number;
  /** A real photograph as the artwork inside the frame (see `photo()`), drawn over `artColor`. */
  artPhoto?: RgbaImage;
  /**
   * A modern card's layout inside the frame instead of art filling it: a body panel of `panel`
   * colour (the frame, for centering, is still the border's inner edge), the artwork in a window
   * across its upper part (inset `inset` mm from the panel's sides, from `top` mm to `bottom` mm
   * below the panel's top) with a rim of `rim` colour 0.5 mm wide, and below it a pale text box
   * (`text`, inset likewise, from 2 mm under the window to `inset` mm above the panel's bottom)
   * holding rows of dark small print: a Pokémon or Magic card's face. Its lines (the window's
   * edges, the text box's) cross the card from side to side well inside its cut.
   */
  layout?: { panel: Rgb; rim: Rgb; text: Rgb; inset: number; top: number; bottom: number };
  /**
   * Thin light lines printed in the artwork (rays, a rim, hatching), in mm from the printed frame's
   * top-left corner: part of the print, so the catalog's reference scan of the card shows them too,
   * and a copy printed off centre has them as far from its frame.
   */
  printedLines?: { x0: number; y0: number; x1: number; y1: number }[];
  /**
   * Rows of small print in the bottom border (a copyright line, a collector line): letters 0.35 mm
   * wide at a 0.55 mm pitch, some left out as spaces, each row `from`–`to` mm in from the bottom
   * edge and `start`–`end` mm along it from the left edge, in `color`. Part of the print: the
   * catalog's reference scan shows it too.
   */
  borderPrint?: { rows: { from: number; to: number; start: number; end: number }[]; color: Rgb };
  /**
   * The bottom border is a collector bar (a modern Magic card's): deeper than the others by
   * design, its top printed as wide as its sides. Centering top to bottom is then the top border
   * against the side borders' mean (truthOf), as the engine reads it.
   */
  collectorBar?: boolean;
  /** A real photographed table texture (see `photo()`), tiled and tinted with `background`. */
  tablePhoto?: RgbaImage;
  /** Table texture pixels per canvas pixel (0.5 = the texture drawn at twice its size). */
  tableScale?: number;
  /** How strongly the table texture modulates the table colour (1 = as photographed; default 0.5). */
  tableContrast?: number;
  /** A glare patch: centre as a share of the canvas, radius as a share of the card width, strength 0–1. */
  glare?: { x: number; y: number; radius: number; strength: number };
  /** Per-channel multipliers of the whole photo (a colour cast, e.g. [1.08, 1, 0.88] for warm light). */
  colorCast?: readonly [number, number, number];
  /** Darkening toward the photo's corners (0.3 = 30 % darker in the corners). */
  vignette?: number;
}

export const CARD_MM = { width: 63, height: 88 } as const;

/** Truth for a scene: the centering the engine should measure, in percentage points. */
export function truthOf(scene: CardScene) {
  const { left, right, top } = scene.borders;
  // A collector bar's designed depth is unknown; the top's shift from the sides' width is the print's.
  const bottom = scene.collectorBar ? left + right - top : scene.borders.bottom;
  return {
    horizontal: (left / (left + right)) * 100 - 50,
    vertical: (top / (top + bottom)) * 100 - 50,
    leftRight: (left / (left + right)) * 100,
    topBottom: (top / (top + bottom)) * 100,
  };
}

function rng(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** Signed distance from (x, y) to a rounded rectangle centred at the origin (negative inside). */
interface Chip {
  /** 0 left, 1 top, 2 right, 3 bottom. */
  side: number;
  /** Where the chip starts along its side (share of the side). */
  along: number;
  /** Length along the side and depth into the card, in pixels. */
  length: number;
  depth: number;
}

/** Whether the card point (u, v), from the card's centre, lies in the chip. */
function inChip(chip: Chip, u: number, v: number, halfW: number, halfH: number): boolean {
  const horizontalEdge = chip.side % 2 === 1;
  const alongPos = horizontalEdge ? u + halfW : v + halfH;
  const span = horizontalEdge ? 2 * halfW : 2 * halfH;
  const depthIn = horizontalEdge ? halfH - Math.abs(v) : halfW - Math.abs(u);
  const onSide = horizontalEdge ? (chip.side === 1 ? v < 0 : v > 0) : chip.side === 0 ? u < 0 : u > 0;
  const start = chip.along * span;
  return onSide && alongPos > start && alongPos < start + chip.length && depthIn < chip.depth;
}

function roundedRectDistance(x: number, y: number, halfW: number, halfH: number, radius: number): number {
  const qx = Math.abs(x) - (halfW - radius);
  const qy = Math.abs(y) - (halfH - radius);
  // Math.hypot(a, 0) is a and Math.hypot(0, 0) is 0, exactly: the square root (the slow part of a
  // scene's millions of calls) is needed only beside a corner.
  const outside = qx > 0 && qy > 0 ? Math.hypot(qx, qy) : Math.max(qx, qy, 0);
  return outside + Math.min(Math.max(qx, qy), 0) - radius;
}

/**
 * How far (x, y) lies outside the box of ±halfW × ±halfH (negative inside): at most its distance
 * from a rounded rectangle in that box, so where it is a pixel or more, the pixel is clear of the
 * rectangle and its exact distance (two square roots) need not be worked out.
 */
function outsideBox(x: number, y: number, halfW: number, halfH: number): number {
  return Math.max(Math.abs(x) - halfW, Math.abs(y) - halfH);
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
const mix = (a: number, b: number, t: number) => a + (b - a) * t;

export function drawCardScene(scene: CardScene): RgbaImage {
  const { canvasWidth: W, canvasHeight: H } = scene;
  const random = rng(scene.seed ?? 1);
  const size = scene.cardMm ?? CARD_MM;
  const pxPerMm = scene.cardWidth / size.width;
  const halfW = scene.cardWidth / 2;
  const halfH = (scene.cardWidth * (scene.aspect ?? size.height / size.width)) / 2;
  const radius = (scene.cornerRadius ?? 3) * pxPerMm; // standard 3 mm corner radius
  const cx = (scene.centerX ?? 0.5) * W;
  const cy = (scene.centerY ?? 0.5) * H;
  const theta = ((scene.rotation ?? 0) * Math.PI) / 180;
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  const b = scene.borders;
  // Frame rectangle in card coordinates (origin at the card centre).
  const frameLeft = -halfW + b.left * pxPerMm;
  const frameRight = halfW - b.right * pxPerMm;
  const frameTop = -halfH + b.top * pxPerMm;
  const frameBottom = halfH - b.bottom * pxPerMm;
  const frameCx = (frameLeft + frameRight) / 2;
  const frameCy = (frameTop + frameBottom) / 2;
  const frameHalfW = (frameRight - frameLeft) / 2;
  const frameHalfH = (frameBottom - frameTop) / 2;
  const blobs = Array.from({ length: 7 }, () => ({
    x: mix(frameLeft, frameRight, random()),
    y: mix(frameTop, frameBottom, random()),
    r: mix(0.1, 0.3, random()) * scene.cardWidth,
    c: [random() * 255, random() * 255, random() * 255] as const,
  }));
  const grainPhase = random() * 10;
  const wear = scene.wear ?? {};
  const whitened: readonly [number, number, number] = [238, 236, 230];
  const chips: Chip[] = Array.from({ length: wear.edgeChips ?? 0 }, () => ({
    side: Math.floor(random() * 4),
    along: mix(0.15, 0.85, random()),
    length: mix(1, 3, random()) * pxPerMm,
    depth: mix(0.4, 0.9, random()) * pxPerMm,
  }));
  const scratches = Array.from({ length: wear.scratches ?? 0 }, () => {
    const x0 = mix(frameLeft, frameRight, random());
    const y0 = mix(frameTop, frameBottom, random());
    const angle = random() * Math.PI;
    const length = mix(0.15, 0.4, random()) * scene.cardWidth;
    return { x0, y0, x1: x0 + Math.cos(angle) * length, y1: y0 + Math.sin(angle) * length };
  });
  // Creases run from one card edge to another, through the art and both borders.
  const creases = Array.from({ length: wear.creases ?? 0 }, () => {
    const angle = mix(-0.6, 0.6, random()) + (random() < 0.5 ? 0 : Math.PI / 2);
    const px = mix(-0.3, 0.3, random()) * halfW;
    const py = mix(-0.3, 0.3, random()) * halfH;
    const reach = 2 * halfH;
    const ux = Math.cos(angle);
    const uy = Math.sin(angle);
    return {
      x0: px - ux * reach,
      y0: py - uy * reach,
      x1: px + ux * reach,
      y1: py + uy * reach,
      nx: -uy,
      ny: ux,
      px,
      py,
    };
  });
  const printedLines = (scene.printedLines ?? []).map((line) => ({
    x0: frameLeft + line.x0 * pxPerMm,
    y0: frameTop + line.y0 * pxPerMm,
    x1: frameLeft + line.x1 * pxPerMm,
    y1: frameTop + line.y1 * pxPerMm,
  }));
  const borderPrint = scene.borderPrint;
  const artPhoto = scene.artPhoto;
  // The photo covers the frame (cropped to its aspect), as printed art does.
  const artScale = artPhoto
    ? Math.max((frameRight - frameLeft) / artPhoto.width, (frameBottom - frameTop) / artPhoto.height)
    : 1;
  const tableScale = scene.tableScale ?? 0.5;
  const cast = scene.colorCast ?? [1, 1, 1];
  const glare = scene.glare;
  // A holder: 84 × 137 mm of clear plastic around the card, the card low in it, a label on top.
  const holderHalfW = (84 / 2) * pxPerMm;
  const holderHalfH = (137 / 2) * pxPerMm;
  const holderShift = (137 / 2 - 88 / 2 - 6) * pxPerMm; // card centre below the holder's centre
  const labelTop = -holderHalfH + 4 * pxPerMm;
  const labelBottom = labelTop + 22 * pxPerMm;
  const underlay = scene.underlay;
  const underlayHalfW = underlay ? halfW + ((underlay.margins.left + underlay.margins.right) / 2) * pxPerMm : 0;
  const underlayHalfH = underlay ? halfH + ((underlay.margins.top + underlay.margins.bottom) / 2) * pxPerMm : 0;
  const underlayRadius = (underlay?.cornerRadius ?? 1) * pxPerMm;
  const underlayCos = Math.cos(((underlay?.turn ?? 0) * Math.PI) / 180);
  const underlaySin = Math.sin(((underlay?.turn ?? 0) * Math.PI) / 180);
  const camera = scene.camera && {
    f: scene.camera.focalPx,
    sin: Math.sin((scene.camera.tiltDeg * Math.PI) / 180),
    cos: Math.cos((scene.camera.tiltDeg * Math.PI) / 180),
    // The card's centre, from the principal point, at depth f (drawn at its size when untilted).
    cx: cx - W / 2,
    cy: cy - H / 2,
  };
  const bars = (scene.clutter ?? []).map((bar) => ({
    x0: bar.from[0] * W,
    y0: bar.from[1] * H,
    x1: bar.to[0] * W,
    y1: bar.to[1] * H,
    width: bar.width,
    color: bar.color,
    soft: bar.soft ?? 1,
  }));
  const data = new Uint8Array(W * H * 4);
  const noise = scene.noise ?? 0;
  const falloff = scene.lightFalloff ?? 0;

  // The table photo's bilinear sample (its green channel, mirrored endlessly), as `locate` and
  // `blend` would read it, with the columns' pixels and weights worked out once per column and the rows' once
  // per row: the same arithmetic, without a wrap and a floor per pixel and axis.
  const tablePhoto = scene.tablePhoto;
  const tableColumns = tablePhoto ? tableAxis(W, tableScale, tablePhoto.width) : null;
  for (let y = 0; y < H; y++) {
    const tableRow = tablePhoto ? tableAxis(1, tableScale, tablePhoto.height, y) : null;
    for (let x = 0; x < W; x++) {
      // Background with texture.
      let r = scene.background[0];
      let g = scene.background[1];
      let bl = scene.background[2];
      if (tablePhoto && tableColumns && tableRow) {
        const tx = tableColumns.t[x] as number;
        const ty = tableRow.t[0] as number;
        const top = (tableRow.first[0] as number) * tablePhoto.width;
        const bottom = (tableRow.second[0] as number) * tablePhoto.width;
        const left = tableColumns.first[x] as number;
        const right = tableColumns.second[x] as number;
        const d = tablePhoto.data;
        const texture =
          ((d[(top + left) * 4 + 1] ?? 0) * ((1 - tx) * (1 - ty)) +
            (d[(top + right) * 4 + 1] ?? 0) * (tx * (1 - ty)) +
            (d[(bottom + left) * 4 + 1] ?? 0) * ((1 - tx) * ty) +
            (d[(bottom + right) * 4 + 1] ?? 0) * (tx * ty)) /
          128;
        const k = 1 + (texture - 1) * (scene.tableContrast ?? 0.5);
        r *= k;
        g *= k;
        bl *= k;
      } else if (scene.texture === "wood") {
        const grain = Math.sin(y * 0.09 + Math.sin(x * 0.004 + grainPhase) * 6) * 0.5 + 0.5;
        const k = 0.82 + grain * 0.18;
        r *= k;
        g *= k;
        bl *= k;
      } else if (scene.texture === "cloth") {
        const weave = ((x >> 1) + (y >> 1)) & 1 ? 1.04 : 0.96;
        r *= weave;
        g *= weave;
        bl *= weave;
      }
      for (const bar of bars) {
        const across = segmentDistance(x + 0.5, y + 0.5, bar);
        const cover = clamp01((bar.width / 2 - across) / bar.soft + 0.5);
        if (cover === 0) continue;
        // Lit along its middle, darker toward its sides.
        const shade = 1 - 0.35 * Math.min(1, (2 * across) / bar.width) ** 2;
        r = mix(r, bar.color[0] * shade, cover);
        g = mix(g, bar.color[1] * shade, cover);
        bl = mix(bl, bar.color[2] * shade, cover);
      }
      // Card pixel, in card coordinates. Keystone is a true perspective (a homography): the
      // plane tilts so that its top edge is `keystone` narrower than its bottom edge.
      let dx: number;
      let dy: number;
      if (camera) {
        // The ray through the pixel meets the card's plane (centre C, axes e1 = (1, 0, 0) and
        // e2 = (0, cos θ, −sin θ), normal n = (0, sin θ, cos θ)) at λ·ray; dx, dy are that
        // point's coordinates along e1 and e2, from C.
        const rx = x + 0.5 - W / 2;
        const ry = y + 0.5 - H / 2;
        const lambda = (camera.sin * camera.cy + camera.cos * camera.f) / (camera.sin * ry + camera.cos * camera.f);
        const qy = lambda * ry - camera.cy;
        const qz = lambda * camera.f - camera.f;
        dx = lambda * rx - camera.cx;
        dy = camera.cos * qy - camera.sin * qz;
      } else {
        const tilt = (scene.keystone ?? 0) / (2 * halfH);
        const w = 1 - tilt * (y + 0.5 - cy);
        dx = (x + 0.5 - cx) / w;
        dy = (y + 0.5 - cy) / w;
      }
      if (underlay) {
        const m = underlay.margins;
        // In the card's own axes (as u, v below); the card's shadow then falls on the sheet too.
        const du = dx * cos + dy * sin - ((m.right - m.left) / 2) * pxPerMm;
        const dv = -dx * sin + dy * cos - ((m.bottom - m.top) / 2) * pxPerMm;
        const su = du * underlayCos + dv * underlaySin;
        const sv = -du * underlaySin + dv * underlayCos;
        const sheet = clamp01(0.5 - roundedRectDistance(su, sv, underlayHalfW, underlayHalfH, underlayRadius));
        r = mix(r, underlay.color[0], sheet);
        g = mix(g, underlay.color[1], sheet);
        bl = mix(bl, underlay.color[2], sheet);
      }
      if (scene.shadow) {
        const offset = scene.shadow * scene.cardWidth;
        const sdx = dx - offset;
        const sdy = dy - offset;
        const su = sdx * cos + sdy * sin;
        const sv = -sdx * sin + sdy * cos;
        const soft = offset * (scene.shadowEdge ?? 0.6);
        const inShadow =
          soft > 0 && outsideBox(su, sv, halfW, halfH) >= soft
            ? 0
            : clamp01(0.5 - roundedRectDistance(su, sv, halfW, halfH, radius) / soft);
        const darken = 1 - 0.35 * inShadow;
        r *= darken;
        g *= darken;
        bl *= darken;
      }
      const u = dx * cos + dy * sin;
      let v = -dx * sin + dy * cos;
      if (scene.edgeBand) {
        // The card's outline moved right and down by the band's width, under the card; a wedge's
        // width grows along each side toward the bottom-right corner.
        const offset = scene.edgeBand.mm * pxPerMm;
        const along = (t: number, half: number) => (scene.edgeBand?.wedge ? clamp01((t + half) / (2 * half)) : 1);
        const band = clamp01(
          0.5 - roundedRectDistance(u - offset * along(v, halfH), v - offset * along(u, halfW), halfW, halfH, radius),
        );
        r = mix(r, scene.edgeBand.color[0], band);
        g = mix(g, scene.edgeBand.color[1], band);
        bl = mix(bl, scene.edgeBand.color[2], band);
      }
      if (scene.holder) {
        const plastic = clamp01(0.5 - roundedRectDistance(u, v, holderHalfW, holderHalfH, 2 * pxPerMm));
        const isLabel = v > labelTop && v < labelBottom && Math.abs(u) < holderHalfW - 3 * pxPerMm;
        const labelColor =
          Math.abs(v - (labelTop + labelBottom) / 2) < 2 * pxPerMm && Math.abs(u) < holderHalfW * 0.6
            ? [30, 30, 30]
            : [250, 250, 250];
        const pr = isLabel ? (labelColor[0] ?? 0) : 205;
        const pg = isLabel ? (labelColor[1] ?? 0) : 214;
        const pb = isLabel ? (labelColor[2] ?? 0) : 220;
        r = mix(r, pr, plastic);
        g = mix(g, pg, plastic);
        bl = mix(bl, pb, plastic);
        v -= holderShift;
      }
      let coverage =
        outsideBox(u, v, halfW, halfH) >= 1 ? 0 : clamp01(0.5 - roundedRectDistance(u, v, halfW, halfH, radius));
      if (
        wear.chipsMissing &&
        coverage > 0 &&
        chips.length > 0 &&
        chips.some((chip) => inChip(chip, u, v, halfW, halfH))
      )
        coverage = 0;
      if (coverage > 0) {
        const inFrame = clamp01(0.5 - roundedRectDistance(u - frameCx, v - frameCy, frameHalfW, frameHalfH, 0.01));
        let ar = scene.artColor[0];
        let ag = scene.artColor[1];
        let ab = scene.artColor[2];
        if (artPhoto) {
          const sx = (u - frameCx) / artScale + artPhoto.width / 2;
          const sy = (v - frameCy) / artScale + artPhoto.height / 2;
          locate(artPhoto, sx, sy, false);
          ar = blend(artPhoto.data, 0);
          ag = blend(artPhoto.data, 1);
          ab = blend(artPhoto.data, 2);
        } else {
          for (const blob of blobs) {
            // Beyond its radius a blob adds nothing (t = 0 leaves the colour as it is), so the
            // square root is skipped there; the margin keeps every pixel it reaches as before.
            const bx = u - blob.x;
            const by = v - blob.y;
            if (bx * bx + by * by > blob.r * blob.r * (1 + 1e-9)) continue;
            const t = clamp01(1 - Math.hypot(bx, by) / blob.r) * 0.6;
            ar = mix(ar, blob.c[0], t);
            ag = mix(ag, blob.c[1], t);
            ab = mix(ab, blob.c[2], t);
          }
        }
        for (const line of printedLines) {
          const t = clamp01(1.2 - segmentDistance(u, v, line) / (0.1 * pxPerMm)) * 0.6;
          ar = mix(ar, 250, t);
          ag = mix(ag, 248, t);
          ab = mix(ab, 235, t);
        }
        if (scene.layout) {
          const colour = layoutColour(
            scene.layout,
            ar,
            ag,
            ab,
            (u - frameLeft) / pxPerMm,
            (v - frameTop) / pxPerMm,
            (frameRight - frameLeft) / pxPerMm,
            (frameBottom - frameTop) / pxPerMm,
            1 / pxPerMm,
          );
          ar = colour[0] as number;
          ag = colour[1] as number;
          ab = colour[2] as number;
        }
        let [borderR, borderG, borderB] = scene.borderColor;
        if (scene.bevel) {
          // How far across its border (0 at the cut, 1 at the frame) the point lies: its depth
          // inside the rounded cut, over the border of the side it lies relatively nearest (the
          // first of the nearest, in the order left, right, top, bottom).
          let nearestDepth = u + halfW;
          let nearestBorder = b.left;
          if ((halfW - u) / b.right < nearestDepth / nearestBorder) {
            nearestDepth = halfW - u;
            nearestBorder = b.right;
          }
          if ((v + halfH) / b.top < nearestDepth / nearestBorder) {
            nearestDepth = v + halfH;
            nearestBorder = b.top;
          }
          if ((halfH - v) / b.bottom < nearestDepth / nearestBorder) {
            nearestDepth = halfH - v;
            nearestBorder = b.bottom;
          }
          const depth = -roundedRectDistance(u, v, halfW, halfH, radius);
          const t = clamp01(depth / (nearestBorder * pxPerMm));
          const [r1, g1, b1] = scene.bevel;
          borderR = mix(borderR, r1, t);
          borderG = mix(borderG, g1, t);
          borderB = mix(borderB, b1, t);
        }
        if (scene.cutLine) {
          const depth = -roundedRectDistance(u, v, halfW, halfH, radius);
          const line = clamp01(scene.cutLine.mm * pxPerMm + 0.5 - depth);
          borderR = mix(borderR, scene.cutLine.color[0], line);
          borderG = mix(borderG, scene.cutLine.color[1], line);
          borderB = mix(borderB, scene.cutLine.color[2], line);
        }
        let cr = mix(borderR, ar, inFrame);
        let cg = mix(borderG, ag, inFrame);
        let cb = mix(borderB, ab, inFrame);
        if (borderPrint) {
          const ink = borderPrintInk(borderPrint.rows, (u + halfW) / pxPerMm, (halfH - v) / pxPerMm, 1 / pxPerMm);
          cr = mix(cr, borderPrint.color[0], ink);
          cg = mix(cg, borderPrint.color[1], ink);
          cb = mix(cb, borderPrint.color[2], ink);
        }
        let white = 0;
        if (wear.cornerWhitening) {
          const cornerDistance = Math.hypot(halfW - radius - Math.abs(u), halfH - radius - Math.abs(v)) - radius;
          const nearCorner = Math.abs(u) > halfW - radius && Math.abs(v) > halfH - radius;
          if (nearCorner && cornerDistance > -wear.cornerWhitening * pxPerMm) white = 0.95;
        }
        if (!wear.chipsMissing && chips.length > 0 && chips.some((chip) => inChip(chip, u, v, halfW, halfH)))
          white = 0.95;
        for (const scratch of scratches) {
          if (segmentDistance(u, v, scratch) < 0.7) white = Math.max(white, 0.55);
        }
        cr = mix(cr, whitened[0], white);
        cg = mix(cg, whitened[1], white);
        cb = mix(cb, whitened[2], white);
        for (const crease of creases) {
          const distance = segmentDistance(u, v, crease);
          if (distance > 1.6) continue;
          // The fold's shaded side is dark, its ridge catches the light.
          const side = (u - crease.px) * crease.nx + (v - crease.py) * crease.ny;
          const k = side < 0 ? 0.55 : 1.45;
          const t = clamp01(1.6 - distance);
          cr = mix(cr, Math.min(255, cr * k + (k > 1 ? 40 : 0)), t);
          cg = mix(cg, Math.min(255, cg * k + (k > 1 ? 40 : 0)), t);
          cb = mix(cb, Math.min(255, cb * k + (k > 1 ? 40 : 0)), t);
        }
        r = mix(r, cr, coverage);
        g = mix(g, cg, coverage);
        bl = mix(bl, cb, coverage);
      }
      if (scene.occluder) {
        const o = scene.occluder;
        const ou = (dx * cos + dy * sin) / pxPerMm - o.x;
        const ov = (-dx * sin + dy * cos) / pxPerMm - o.y;
        // Anti-aliased over about a pixel at its rim.
        const cover = clamp01((1 - Math.hypot(ou / o.rx, ov / o.ry)) * o.rx * pxPerMm + 0.5);
        r = mix(r, o.color[0], cover);
        g = mix(g, o.color[1], cover);
        bl = mix(bl, o.color[2], cover);
      }
      let light = 1 - falloff * ((x / W) * 0.6 + (y / H) * 0.4);
      if (scene.vignette) {
        const rx = (x / W - 0.5) * 2;
        const ry = (y / H - 0.5) * 2;
        light *= 1 - scene.vignette * Math.min(1, (rx * rx + ry * ry) / 2);
      }
      if (glare) {
        // Outside its radius the glare lifts nothing (as the blobs above).
        const gx = x - glare.x * W;
        const gy = y - glare.y * H;
        const reach = glare.radius * scene.cardWidth;
        if (gx * gx + gy * gy <= reach * reach * (1 + 1e-9)) {
          const t = clamp01(1 - Math.hypot(gx, gy) / reach);
          const lift = glare.strength * t * t;
          r = mix(r, 255, lift);
          g = mix(g, 255, lift);
          bl = mix(bl, 255, lift);
        }
      }
      const n = noise > 0 ? gaussian(random) * noise : 0;
      const exposure = scene.exposure ?? 1;
      const o = (y * W + x) * 4;
      // A sensor clips at black and white: a cast or noise beyond them must not wrap around (a
      // Uint8Array keeps a value modulo 256, so 270 would come out as 14).
      data[o] = sensor((r * light * cast[0] + n) * exposure);
      data[o + 1] = sensor((g * light * cast[1] + n) * exposure);
      data[o + 2] = sensor((bl * light * cast[2] + n) * exposure);
      data[o + 3] = 255;
    }
  }
  const drawn = { width: W, height: H, data };
  const image = scene.lateralAberration ? withLateralAberration(drawn, scene.lateralAberration) : drawn;
  return scene.blur ? boxBlur(image, scene.blur) : image;
}

/** `image` with red shrunk and blue enlarged about its centre, by `corner` px at its corners. */
function withLateralAberration(image: RgbaImage, corner: number): RgbaImage {
  const { width: W, height: H, data } = image;
  const out = new Uint8Array(data);
  const cx = W / 2;
  const cy = H / 2;
  const share = corner / Math.hypot(cx, cy);
  for (const [channel, scale] of [
    [0, 1 + share],
    [2, 1 - share],
  ] as const) {
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const sx = Math.min(W - 1.001, Math.max(0, cx + (x + 0.5 - cx) * scale - 0.5));
        const sy = Math.min(H - 1.001, Math.max(0, cy + (y + 0.5 - cy) * scale - 0.5));
        const x0 = Math.floor(sx);
        const y0 = Math.floor(sy);
        const fx = sx - x0;
        const fy = sy - y0;
        const at = (xx: number, yy: number) => data[(yy * W + xx) * 4 + channel] ?? 0;
        const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
        const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
        out[(y * W + x) * 4 + channel] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return { width: W, height: H, data: out };
}

/**
 * Where a pixel index and the next one land on a photo's side of `size` px: mirrored endlessly
 * when `repeat` (a table), else clamped. Written to `pair`: the two indices.
 */
function wrapPair(value: number, size: number, repeat: boolean, pair: number[]): void {
  if (!repeat) {
    pair[0] = Math.min(size - 1, Math.max(0, value));
    pair[1] = Math.min(size - 1, Math.max(0, value + 1));
    return;
  }
  const period = 2 * size;
  const m = ((value % period) + period) % period;
  const n = m + 1 === period ? 0 : m + 1;
  pair[0] = m < size ? m : period - 1 - m;
  pair[1] = n < size ? n : period - 1 - n;
}

const columns = [0, 0];
const rows = [0, 0];

// Where a bilinear sample of a photo reads: the byte offsets of the four pixels around (x, y) and
// their bilinear weights. Module state, so a scene's millions of samples allocate nothing.
const near = { p00: 0, p10: 0, p01: 0, p11: 0, w00: 0, w10: 0, w01: 0, w11: 0 };

function locate(photo: RgbaImage, x: number, y: number, repeat: boolean): void {
  const { width: w, height: h } = photo;
  const fx = x - 0.5;
  const fy = y - 0.5;
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const tx = fx - x0;
  const ty = fy - y0;
  wrapPair(x0, w, repeat, columns);
  wrapPair(y0, h, repeat, rows);
  const left = columns[0] as number;
  const right = columns[1] as number;
  const top = (rows[0] as number) * w;
  const bottom = (rows[1] as number) * w;
  near.p00 = (top + left) * 4;
  near.p10 = (top + right) * 4;
  near.p01 = (bottom + left) * 4;
  near.p11 = (bottom + right) * 4;
  near.w00 = (1 - tx) * (1 - ty);
  near.w10 = tx * (1 - ty);
  near.w01 = (1 - tx) * ty;
  near.w11 = tx * ty;
}

/** One channel of the bilinear sample at the pixels `locate` found. */
function blend(data: Uint8Array, channel: number): number {
  return (
    (data[near.p00 + channel] ?? 0) * near.w00 +
    (data[near.p10 + channel] ?? 0) * near.w10 +
    (data[near.p01 + channel] ?? 0) * near.w01 +
    (data[near.p11 + channel] ?? 0) * near.w11
  );
}

/**
 * Where `locate` reads a mirrored photo along one axis, for the `count` coordinates from `from`
 * on, each scaled by `scale`: the two pixel indices and the weight of the second.
 */
function tableAxis(count: number, scale: number, size: number, from = 0) {
  const first = new Int32Array(count);
  const second = new Int32Array(count);
  const t = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const f = (from + i) * scale - 0.5;
    const i0 = Math.floor(f);
    t[i] = f - i0;
    wrapPair(i0, size, true, columns);
    first[i] = columns[0] as number;
    second[i] = columns[1] as number;
  }
  return { first, second, t };
}

function segmentDistance(x: number, y: number, s: { x0: number; y0: number; x1: number; y1: number }): number {
  const dx = s.x1 - s.x0;
  const dy = s.y1 - s.y0;
  const t = Math.min(1, Math.max(0, ((x - s.x0) * dx + (y - s.y0) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (s.x0 + t * dx), y - (s.y0 + t * dy));
}

/** Separable box blur of `radius` pixels, twice (close to a Gaussian). */
function boxBlur(image: RgbaImage, radius: number): RgbaImage {
  let current = image.data;
  const { width: W, height: H } = image;
  for (let pass = 0; pass < 4; pass++) {
    const horizontal = pass % 2 === 0;
    const out = new Uint8Array(current.length);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        for (let ch = 0; ch < 4; ch++) {
          let sum = 0;
          let count = 0;
          for (let k = -radius; k <= radius; k++) {
            const sx = horizontal ? Math.min(W - 1, Math.max(0, x + k)) : x;
            const sy = horizontal ? y : Math.min(H - 1, Math.max(0, y + k));
            sum += current[(sy * W + sx) * 4 + ch] ?? 0;
            count++;
          }
          out[(y * W + x) * 4 + ch] = sum / count;
        }
      }
    }
    current = out;
  }
  return { width: W, height: H, data: current };
}

/** A channel value as a sensor records it: clipped to 0–255 (then truncated, as before). */
const sensor = (value: number) => Math.min(255, Math.max(0, value));

function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** The back of the card in `scene`: same size and pose, even borders, a plain printed back. */
export function backOf(scene: CardScene): CardScene {
  return {
    ...scene,
    borders: { left: 3, right: 3.2, top: 3.1, bottom: 3 },
    artColor: [60, 70, 150],
    seed: (scene.seed ?? 1) + 7919,
    wear: scene.wear,
    // The front's printed lines and layout belong to its face; the back is the maker's design.
    printedLines: [],
    borderPrint: undefined,
    layout: undefined,
  };
}

/** Letters' pitch and ink width along a row of border print (mm). */
const LETTER_PITCH_MM = 0.55;
const LETTER_INK_MM = 0.35;

/**
 * The colour at `x`, `y` mm from the frame's top-left corner of a card laid out as `layout`
 * describes (a `w` × `h` mm frame), `art` the artwork's colour there; edges anti-aliased over a
 * pixel of `pixelMm`.
 */
function layoutColour(
  layout: NonNullable<CardScene["layout"]>,
  artR: number,
  artG: number,
  artB: number,
  x: number,
  y: number,
  w: number,
  h: number,
  pixelMm: number,
): Float64Array {
  const { inset, top, bottom } = layout;
  const rim = within(x, y, inset - 0.5, top - 0.5, w - inset + 0.5, bottom + 0.5, pixelMm);
  const window = within(x, y, inset, top, w - inset, bottom, pixelMm);
  const textBox = within(x, y, inset, bottom + 2, w - inset, h - inset, pixelMm);
  let r = layout.panel[0];
  let g = layout.panel[1];
  let b = layout.panel[2];
  r = mix(r, layout.rim[0], rim);
  g = mix(g, layout.rim[1], rim);
  b = mix(b, layout.rim[2], rim);
  r = mix(r, artR, window);
  g = mix(g, artG, window);
  b = mix(b, artB, window);
  if (textBox > 0) {
    // Rows of small print 1 mm tall, 2.4 mm apart, from 2.5 mm into the box, 3 mm in from its sides.
    const boxTop = bottom + 2;
    const row = Math.floor((y - boxTop - 2.5) / 2.4);
    const rowTop = boxTop + 2.5 + row * 2.4;
    const ink =
      row >= 0 && rowTop + 1 < h - inset - 2 && x > inset + 3 && x < w - inset - 3
        ? borderPrintInk([{ from: rowTop, to: rowTop + 1, start: inset + 3, end: w - inset - 3 }], x, y, pixelMm)
        : 0;
    r = mix(r, layout.text[0], textBox);
    g = mix(g, layout.text[1], textBox);
    b = mix(b, layout.text[2], textBox);
    r = mix(r, 40, ink * textBox);
    g = mix(g, 38, ink * textBox);
    b = mix(b, 36, ink * textBox);
  }
  layoutOut[0] = r;
  layoutOut[1] = g;
  layoutOut[2] = b;
  return layoutOut;
}

/** layoutColour's answer: module state, so a scene's pixels allocate nothing. */
const layoutOut = new Float64Array(3);

/** How much of the pixel at (x, y) mm lies inside the box (x0, y0)–(x1, y1), soft over one pixel. */
function within(x: number, y: number, x0: number, y0: number, x1: number, y1: number, pixelMm: number): number {
  return clamp01(0.5 + Math.min(x - x0, x1 - x, y - y0, y1 - y) / pixelMm);
}

/**
 * How much of the pixel at (`along`, `depth`) mm (along the bottom edge from the left, in from
 * it) is a letter's ink, 0–1, soft over one pixel (`pixelMm`): every seventh letter or so
 * (by a fixed hash of its place) is a space between words.
 */
function borderPrintInk(
  rows: NonNullable<CardScene["borderPrint"]>["rows"],
  along: number,
  depth: number,
  pixelMm: number,
): number {
  let ink = 0;
  for (const row of rows) {
    if (along < row.start || along > row.end || depth < row.from - pixelMm || depth > row.to + pixelMm) continue;
    const letter = Math.floor((along - row.start) / LETTER_PITCH_MM);
    if (Math.imul(letter + 17, 0x9e3779b1) >>> 28 < 2) continue;
    const x = along - row.start - letter * LETTER_PITCH_MM;
    const inside = Math.min(x, LETTER_INK_MM - x, depth - row.from, row.to - depth);
    ink = Math.max(ink, clamp01(0.5 + inside / pixelMm));
  }
  return ink;
}

/**
 * The catalog's reference image of the card in `scene`: the same print (art, borders, colours,
 * design, printed lines) scanned flat and square at 8 px/mm and cropped to the card, as catalog
 * images are, sharp, without wear, glare or the photo's light. `margin` (a share of the card's
 * width) leaves a plain light ground around it instead, a scan not cropped.
 */
export function referenceScan(scene: CardScene, margin = 0): CardScene {
  const size = scene.cardMm ?? CARD_MM;
  const cardWidth = size.width * 8;
  const cardHeight = size.height * 8;
  return {
    canvasWidth: Math.round(cardWidth * (1 + 2 * margin)),
    canvasHeight: Math.round(cardHeight + 2 * margin * cardWidth),
    cardWidth,
    ...(scene.cardMm ? { cardMm: scene.cardMm } : {}),
    borders: scene.borders,
    borderColor: scene.borderColor,
    ...(scene.bevel ? { bevel: scene.bevel } : {}),
    artColor: scene.artColor,
    ...(scene.artPhoto ? { artPhoto: scene.artPhoto } : {}),
    ...(scene.printedLines ? { printedLines: scene.printedLines } : {}),
    ...(scene.borderPrint ? { borderPrint: scene.borderPrint } : {}),
    ...(scene.layout ? { layout: scene.layout } : {}),
    background: [236, 236, 232],
    texture: "plain",
    noise: 1,
    seed: scene.seed ?? 1,
  };
}

/** A photo of the background alone (an "empty" side). */
export function emptyScene(scene: CardScene): CardScene {
  return { ...scene, cardWidth: 0.0001 };
}

/** JPEG bytes of an RGBA image at `quality` (1–100), encoded by jpeg-js. */
export function encodeJpeg(image: RgbaImage, quality: number): Uint8Array {
  const encoded = encodeJpegJs({ width: image.width, height: image.height, data: image.data }, quality);
  return new Uint8Array(encoded.data as unknown as ArrayLike<number>);
}

/** What withExif writes: IFD0's orientation, and an Exif IFD with the lens and the recorded size. */
export interface ExifFields {
  orientation?: number;
  /** FocalLengthIn35mmFilm (0xA405), mm. */
  focal35mm?: number;
  /** PixelXDimension / PixelYDimension (0xA002 / 0xA003). */
  pixelWidth?: number;
  pixelHeight?: number;
}

/** Inserts an APP1 EXIF segment (big-endian TIFF) carrying `fields` right after the JPEG's SOI marker. */
export function withExif(jpeg: Uint8Array, fields: ExifFields): Uint8Array {
  const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...exifTiff(fields)];
  const segment = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
  const out = new Uint8Array(jpeg.length + segment.length);
  out.set(jpeg.subarray(0, 2), 0);
  out.set(segment, 2);
  out.set(jpeg.subarray(2), 2 + segment.length);
  return out;
}

/** Inserts an eXIf chunk carrying `fields` right after a PNG's IHDR chunk (8 + 25 bytes in). */
export function withPngExif(png: Uint8Array, fields: ExifFields): Uint8Array {
  const tiff = exifTiff(fields);
  const chunk = new Uint8Array(12 + tiff.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, tiff.length);
  chunk.set([0x65, 0x58, 0x49, 0x66], 4); // "eXIf"
  chunk.set(tiff, 8);
  view.setUint32(8 + tiff.length, crc32(chunk.subarray(4, 8 + tiff.length)));
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, 33), 0);
  out.set(chunk, 33);
  out.set(png.subarray(33), 33 + chunk.length);
  return out;
}

/**
 * An extended WebP (VP8X with the EXIF flag) of `width` × `height` around a simple file's VP8L
 * chunk (`simple`: "RIFF", size, "WEBP", then the VP8L chunk), with an EXIF chunk carrying `fields`.
 */
export function webpWithExif(simple: Uint8Array, width: number, height: number, fields: ExifFields): Uint8Array {
  const tiff = exifTiff(fields);
  const image = simple.subarray(12);
  const exifSize = tiff.length + (tiff.length % 2);
  const out = new Uint8Array(12 + 18 + image.length + 8 + exifSize);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) =>
    out.set(
      [...text].map((c) => c.charCodeAt(0)),
      at,
    );
  ascii(0, "RIFF");
  view.setUint32(4, out.length - 8, true);
  ascii(8, "WEBP");
  ascii(12, "VP8X");
  view.setUint32(16, 10, true);
  out[20] = 0x08; // EXIF present
  out.set([(width - 1) & 0xff, ((width - 1) >> 8) & 0xff, (width - 1) >> 16], 24);
  out.set([(height - 1) & 0xff, ((height - 1) >> 8) & 0xff, (height - 1) >> 16], 27);
  out.set(image, 30);
  ascii(30 + image.length, "EXIF");
  view.setUint32(34 + image.length, tiff.length, true);
  out.set(tiff, 38 + image.length);
  return out;
}

/** CRC-32 (ISO-HDLC, as PNG chunks use), bit by bit. */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A big-endian TIFF structure: IFD0 (orientation, the Exif IFD pointer) and the Exif IFD (lens, size). */
function exifTiff(fields: ExifFields): Uint8Array {
  type Entry = [tag: number, type: 3 | 4, value: number];
  const ifd0: Entry[] = [];
  const exif: Entry[] = [];
  if (fields.orientation !== undefined) ifd0.push([0x0112, 3, fields.orientation]);
  if (fields.pixelWidth !== undefined) exif.push([0xa002, 4, fields.pixelWidth]);
  if (fields.pixelHeight !== undefined) exif.push([0xa003, 4, fields.pixelHeight]);
  if (fields.focal35mm !== undefined) exif.push([0xa405, 3, fields.focal35mm]);
  const ifdSize = (entries: Entry[]) => 2 + entries.length * 12 + 4;
  // TIFF header (8 bytes), IFD0 (with the Exif IFD pointer when there is one), the Exif IFD.
  if (exif.length > 0) ifd0.push([0x8769, 4, 8 + ifdSize([...ifd0, [0x8769, 4, 0]])]);
  const tiff = new Uint8Array(8 + ifdSize(ifd0) + (exif.length > 0 ? ifdSize(exif) : 0));
  const view = new DataView(tiff.buffer);
  tiff.set([0x4d, 0x4d, 0x00, 0x2a]);
  view.setUint32(4, 8);
  const writeIfd = (at: number, entries: Entry[]) => {
    view.setUint16(at, entries.length);
    entries.forEach(([tag, type, value], i) => {
      const entry = at + 2 + i * 12;
      view.setUint16(entry, tag);
      view.setUint16(entry + 2, type);
      view.setUint32(entry + 4, 1);
      if (type === 3) view.setUint16(entry + 8, value);
      else view.setUint32(entry + 8, value);
    });
    view.setUint32(at + 2 + entries.length * 12, 0); // no next IFD
  };
  writeIfd(8, ifd0);
  if (exif.length > 0) writeIfd(8 + ifdSize(ifd0), exif);
  return tiff;
}
