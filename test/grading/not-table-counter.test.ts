// The row-span count of non-table pixels between two outlines (find-card.ts) against counting
// every pixel centre with the half-plane test of geometry.ts.
import { describe, expect, it } from "vitest";
import { notTableCounter } from "../../src/grading/engine/find-card";
import { inside, type Quad } from "../../src/grading/engine/geometry";

function bruteForce(table: Uint8Array, width: number, outer: Quad, inner: Quad): number {
  const height = table.length / width;
  let ring = 0;
  let notTable = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const centre = { x: x + 0.5, y: y + 0.5 };
      if (!inside(outer, centre, 0) || inside(inner, centre, 0)) continue;
      ring++;
      if (table[y * width + x] !== 1) notTable++;
    }
  }
  return ring > 0 ? notTable / ring : 0;
}

/** A rotated rectangle, clockwise on screen from its top-left corner. */
function rectangle(cx: number, cy: number, w: number, h: number, degrees: number): Quad {
  const t = (degrees * Math.PI) / 180;
  const corner = (x: number, y: number) => ({
    x: cx + x * Math.cos(t) - y * Math.sin(t),
    y: cy + x * Math.sin(t) + y * Math.cos(t),
  });
  return [corner(-w / 2, -h / 2), corner(w / 2, -h / 2), corner(w / 2, h / 2), corner(-w / 2, h / 2)];
}

describe("notTableCounter", () => {
  it("counts the ring between two outlines exactly as a per-pixel test does", () => {
    const width = 160;
    const height = 120;
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const table = new Uint8Array(width * height).map(() => (random() < 0.6 ? 1 : 0));
    const share = notTableCounter(table, width);
    for (let n = 0; n < 40; n++) {
      const cx = 60 + random() * 40;
      const cy = 45 + random() * 30;
      const angle = random() * 30 - 15;
      const outer = rectangle(cx, cy, 70 + random() * 40, 60 + random() * 40, angle);
      // Inside the outer one, partly outside it, or beyond it altogether.
      const inner = rectangle(cx + (random() - 0.5) * 60, cy + (random() - 0.5) * 40, 30, 40, angle + random() * 6);
      expect(share(outer, inner)).toBeCloseTo(bruteForce(table, width, outer, inner), 12);
    }
  });

  it("answers 0 for an outline outside the photo", () => {
    const share = notTableCounter(new Uint8Array(100).fill(0), 10);
    expect(share(rectangle(50, 50, 8, 8, 0), rectangle(50, 50, 2, 2, 0))).toBe(0);
  });
});
