// QR codes for the certificate page and badge: uqr encodes (a small, dependency-free encoder that
// runs on Workers); this draws the modules as one SVG path so the code nests inside another SVG.
import { encode } from "uqr";

export interface QrCode {
  /** Modules per side, without a quiet zone. */
  size: number;
  /** One path in module units (0..size), dark modules filled: `<path d="…"/>`. */
  path: string;
}

/** The QR code of `text` (error correction M: survives a scuffed print or a small badge). */
export function qrCode(text: string): QrCode {
  const { data, size } = encode(text, { ecc: "M", border: 0 });
  let path = "";
  data.forEach((row, y) => {
    // Runs of dark modules along the row, one rectangle each.
    let x = 0;
    while (x < size) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && row[x]) x++;
      path += `M${start} ${y}h${x - start}v1h-${x - start}z`;
    }
  });
  return { size, path };
}

/**
 * The QR code as an SVG fragment placed at (x, y) and `side` units wide, on a white square with a
 * quiet zone of `quiet` modules (4 is the standard's; 2 reads fine on a plain background).
 */
export function qrSvgGroup(code: QrCode, x: number, y: number, side: number, quiet = 4): string {
  const scale = side / (code.size + 2 * quiet);
  return `<g transform="translate(${x} ${y}) scale(${+scale.toFixed(4)})"><rect width="${code.size + 2 * quiet}" height="${code.size + 2 * quiet}" fill="#fff"/><path transform="translate(${quiet} ${quiet})" fill="#000" d="${code.path}"/></g>`;
}
