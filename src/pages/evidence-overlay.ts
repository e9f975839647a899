// The certificate page's view of how the grade was measured: each photo with the evidence drawn
// over it as inline SVG (the detected outline in cyan, the printed frame in magenta, defects as
// boxes), and a short list of the measurements. Defect boxes are given in millimetres on the card;
// they are placed by bilinear interpolation between the card's four corners (exact for a card
// photographed square-on, within a pixel or two for the keystone a graded photo may have).
import type { DefectRegion, FaceEvidence, FaceName, GradeEvidence, PixelPoint } from "../grading/engine/evidence";
import { escapeHtml } from "./html";

const DEFECT_COLOR: Record<DefectRegion["type"], string> = {
  whitening: "#eb1e1e",
  missing_material: "#eb1e1e",
  chip: "#ff9600",
  crease: "#ffe600",
  scratch: "#ffe600",
  stain: "#ffe600",
  reference_difference: "#ffe600",
};

/** A point on the card (mm from its top-left corner) in photo pixels. */
export function cardToPhoto(face: FaceEvidence, xMm: number, yMm: number): PixelPoint {
  const u = xMm / face.format.width_mm;
  const v = yMm / face.format.height_mm;
  const [tl, tr, br, bl] = face.corners;
  const x = (1 - u) * (1 - v) * tl[0] + u * (1 - v) * tr[0] + u * v * br[0] + (1 - u) * v * bl[0];
  const y = (1 - u) * (1 - v) * tl[1] + u * (1 - v) * tr[1] + u * v * br[1] + (1 - u) * v * bl[1];
  return [Math.round(x * 10) / 10, Math.round(y * 10) / 10];
}

const points = (list: PixelPoint[]) => list.map(([x, y]) => `${x},${y}`).join(" ");

/** Inline SVG of one photo with its evidence drawn over it. */
export function evidenceSvg(imageUrl: string, face: FaceEvidence, defects: DefectRegion[], label: string): string {
  const { width, height } = face.image_size;
  const stroke = Math.max(2, Math.round(width / 300));
  const frame = face.frame_lines
    ? Object.values(face.frame_lines)
        .map(([a, b]) => `<line x1="${a[0]}" y1="${a[1]}" x2="${b[0]}" y2="${b[1]}" class="frame"/>`)
        .join("")
    : "";
  const boxes = defects
    .map((d) => {
      const grow = Math.max(0, (1.5 - Math.min(d.box_mm.width, d.box_mm.height)) / 2);
      const { x, y, width: w, height: h } = d.box_mm;
      const quad = [
        cardToPhoto(face, x - grow, y - grow),
        cardToPhoto(face, x + w + grow, y - grow),
        cardToPhoto(face, x + w + grow, y + h + grow),
        cardToPhoto(face, x - grow, y + h + grow),
      ];
      return `<polygon points="${points(quad)}" stroke="${DEFECT_COLOR[d.type]}" class="defect"><title>${escapeHtml(`${d.type.replace("_", " ")}, ${d.location.replace(/_/g, " ")}, ${d.area_mm2} mm²`)}</title></polygon>`;
    })
    .join("");
  return `<svg class="evidence" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(label)}" style="--w:${stroke}px">
<image href="${escapeHtml(imageUrl)}" x="0" y="0" width="${width}" height="${height}"/>
<polygon points="${points(face.corners)}" class="outline"/>${frame}${boxes}
</svg>`;
}

/** The measurements in words, for the page's "How this grade was measured" list. */
export function evidenceFacts(evidence: GradeEvidence): [string, string][] {
  const facts: [string, string][] = [];
  for (const name of ["front", "back"] as FaceName[]) {
    const borders = evidence.faces[name].borders_mm;
    if (borders) {
      const bar = evidence.faces[name].bar;
      const other = bar === "top" ? "bottom" : "top";
      facts.push([
        `Borders (${name})`,
        `left ${borders.left} mm · right ${borders.right} mm · top ${borders.top} mm · bottom ${borders.bottom} mm${
          bar
            ? ` (the ${bar} is a collector bar, wider by design: top to bottom is the ${other} border against the left and right borders' mean)`
            : ""
        }`,
      ]);
    }
  }
  const margin = evidence.centering.margin_to_next_grade;
  facts.push([
    "Centering margin",
    margin === null ? "no other grade within reach" : `${margin} points from the next centering grade`,
  ]);
  const print = evidence.centering.print_size;
  if (print) {
    const size = (s: { width: number; height: number }) => `${s.width.toFixed(1)} × ${s.height.toFixed(1)} mm`;
    facts.push([
      "Printed frame",
      `${size(print.frame_mm)}; the catalog's print ${size(print.catalog_print_mm)}${print.verdict === "same" ? "" : " (another printing?)"}`,
    ]);
  }
  for (const subgrade of ["corners", "edges", "surface"] as const) {
    const wear = evidence[subgrade];
    const found =
      wear.defects.length === 0
        ? "no defects found"
        : `${wear.defects.length} defect${wear.defects.length > 1 ? "s" : ""} found`;
    facts.push([
      subgrade[0]?.toUpperCase() + subgrade.slice(1),
      `${found}; ${Math.round(wear.examined_share * 100)} % of the area examined (${wear.examined_mm2} mm²)`,
    ]);
  }
  return facts;
}

export const EVIDENCE_STYLE = `
  svg.evidence { width: 100%; height: auto; border-radius: 6px; }
  svg.evidence .outline { fill: none; stroke: #00c8ff; stroke-width: var(--w); }
  svg.evidence .frame { stroke: #ff28aa; stroke-width: var(--w); }
  svg.evidence .defect { fill: none; stroke-width: var(--w); }
  .legend { color: var(--muted); font-size: 13px; }`;
