// The damage report: the photo as analysed, with what was measured drawn over it. Cyan: the card's
// detected outline; magenta: the printed frame's lines; red boxes: corner wear; orange boxes: edge
// chips; yellow boxes: scratches and creases. Shapes are drawn from the grade's evidence (photo
// pixels), so the report shows exactly what the API returns.
import type { DefectRegion, FaceEvidence, PixelPoint } from "./evidence";
import { downscaleToFit, type RgbaImage } from "./image";
import { encodePng } from "./png";

type Rgb = readonly [number, number, number];
const CYAN: Rgb = [0, 200, 255];
const MAGENTA: Rgb = [255, 40, 170];
const RED: Rgb = [235, 30, 30];
const ORANGE: Rgb = [255, 150, 0];
const YELLOW: Rgb = [255, 230, 0];
/** The report's longer side, in pixels: enough to see a 1 mm defect box on a card half the photo. */
export const REPORT_MAX_SIDE = 1000;

export const DEFECT_COLORS: Record<DefectRegion["type"], Rgb> = {
  whitening: RED,
  missing_material: RED,
  chip: ORANGE,
  crease: YELLOW,
  scratch: YELLOW,
  stain: YELLOW,
  reference_difference: YELLOW,
};

function dot(image: RgbaImage, x: number, y: number, t: number, rgb: Rgb): void {
  const r = Math.max(0, Math.floor(t / 2));
  for (let yy = Math.round(y) - r; yy <= Math.round(y) + r; yy++) {
    if (yy < 0 || yy >= image.height) continue;
    for (let xx = Math.round(x) - r; xx <= Math.round(x) + r; xx++) {
      if (xx < 0 || xx >= image.width) continue;
      image.data.set(rgb, (yy * image.width + xx) * 4);
    }
  }
}

/** A straight line of thickness `t` pixels. */
export function drawLine(image: RgbaImage, a: PixelPoint, b: PixelPoint, t: number, rgb: Rgb): void {
  const steps = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1])));
  for (let i = 0; i <= steps; i++) {
    const s = i / steps;
    dot(image, a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s, t, rgb);
  }
}

function polygon(image: RgbaImage, points: PixelPoint[], t: number, rgb: Rgb): void {
  points.forEach((p, i) => {
    drawLine(image, p, points[(i + 1) % points.length] ?? p, t, rgb);
  });
}

/**
 * Renders one face's report. `photo` is the image the engine analysed; `face` its evidence (photo
 * pixels); `mmToPhoto` maps a point on the card (mm from its top-left corner) to photo pixels.
 */
export async function renderDamageReport(
  photo: RgbaImage,
  face: FaceEvidence,
  defects: DefectRegion[],
  mmToPhoto: (x: number, y: number) => PixelPoint,
): Promise<Uint8Array> {
  const scaled = downscaleToFit(photo, REPORT_MAX_SIDE);
  const image: RgbaImage = {
    width: scaled.width,
    height: scaled.height,
    data: scaled === photo ? photo.data.slice() : scaled.data,
  };
  const k = image.width / face.image_size.width;
  const at = (p: PixelPoint): PixelPoint => [p[0] * k, p[1] * k];
  const thickness = Math.max(2, Math.round(image.width / 400));
  polygon(image, face.corners.map(at), thickness, CYAN);
  if (face.frame_lines) {
    for (const segment of Object.values(face.frame_lines))
      drawLine(image, at(segment[0]), at(segment[1]), thickness, MAGENTA);
  }
  for (const defect of defects) {
    const { x, y, width, height } = defect.box_mm;
    // At least 1.5 mm across, so a small defect's box is still visible.
    const grow = Math.max(0, (1.5 - Math.min(width, height)) / 2);
    const box: PixelPoint[] = [
      mmToPhoto(x - grow, y - grow),
      mmToPhoto(x + width + grow, y - grow),
      mmToPhoto(x + width + grow, y + height + grow),
      mmToPhoto(x - grow, y + height + grow),
    ].map(at);
    polygon(image, box, thickness, DEFECT_COLORS[defect.type]);
  }
  return encodePng(image);
}
