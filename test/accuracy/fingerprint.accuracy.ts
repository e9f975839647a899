import { afterAll, describe, expect, it } from "vitest";
import { BuiltinEngine } from "../../src/grading/engine/builtin";
import { type CardFingerprint, compareFingerprints } from "../../src/grading/engine/fingerprint";
import { type CopyPhoto, cardCopyPhotos } from "../helpers/card-copies";
import { drawCardScene, encodeJpeg } from "../helpers/card-images";

// The same card seen twice: 10 designs × 4 copies × 2 photos, each photo on another table, angle,
// distance and light. Every pair of photos is compared: photos of one copy must match (≥ 95 %),
// photos of different copies of one design must not (≤ 1 %), nor photos of different designs.
const DESIGNS = 10;
const COPIES = 4;
const PHOTOS = 2;
const engine = new BuiltinEngine();
const graded: { photo: CopyPhoto; fingerprint: CardFingerprint }[] = [];
const refused: string[] = [];
// SAME_CUT_MM was chosen on the set drawn with seed 14; this is a fresh set, so the rates are not fitted to it.
const SEED = 15;
const photos = cardCopyPhotos(DESIGNS, COPIES, PHOTOS, SEED);

describe("card fingerprint on drawn copies", () => {
  it.each(photos.map((p) => [`design ${p.design} copy ${p.copy} photo ${p.photo}`, p] as const))(
    "%s is graded with a fingerprint",
    async (name, photo) => {
      const result = await engine.grade({
        front: { bytes: encodeJpeg(drawCardScene(photo.front), photo.quality), contentType: "image/jpeg" },
        back: { bytes: encodeJpeg(drawCardScene(photo.back), photo.quality), contentType: "image/jpeg" },
      });
      if (result.status !== "graded" || !result.fingerprint) {
        refused.push(`${name}: ${result.status === "graded" ? "no fingerprint" : result.message}`);
        return;
      }
      graded.push({ photo, fingerprint: result.fingerprint });
      expect(result.fingerprint.front_hash).toMatch(/^[0-9a-f]{16}$/);
    },
  );

  afterAll(() => {
    const rows = { sameCopy: [] as number[], otherCopy: [] as number[], otherDesign: [] as number[] };
    const matched = { sameCopy: 0, otherCopy: 0, otherDesign: 0 };
    const hashSameDesign: number[] = [];
    for (let i = 0; i < graded.length; i++) {
      for (let j = i + 1; j < graded.length; j++) {
        const a = graded[i];
        const b = graded[j];
        if (!a || !b) continue;
        const comparison = compareFingerprints(a.fingerprint, b.fingerprint);
        const kind =
          a.photo.design !== b.photo.design ? "otherDesign" : a.photo.copy === b.photo.copy ? "sameCopy" : "otherCopy";
        rows[kind].push(comparison.border_difference_mm);
        if (kind !== "otherDesign") hashSameDesign.push(comparison.hash_distance);
        if (comparison.match) matched[kind]++;
      }
    }
    const pct = (n: number, total: number) => (total === 0 ? "n/a" : `${((100 * n) / total).toFixed(1)} %`);
    const quantile = (values: number[], q: number) => {
      const sorted = [...values].sort((x, y) => x - y);
      return (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN).toFixed(2);
    };
    const line = (label: string, kind: keyof typeof rows) =>
      `| ${label} | ${rows[kind].length} | ${matched[kind]} | ${pct(matched[kind], rows[kind].length)} | ${quantile(rows[kind], 0)} | ${quantile(rows[kind], 0.5)} | ${quantile(rows[kind], 1)} |`;
    console.log(
      [
        `card fingerprint (seed ${SEED}): ${graded.length} of ${photos.length} photo pairs graded (${refused.length} refused${refused.length ? `: ${refused.join("; ")}` : ""})`,
        "| pairs of photos | pairs | matched | match rate | border diff mm min | median | max |",
        "|---|---|---|---|---|---|---|",
        line("same copy, another table/angle/light", "sameCopy"),
        line("different copies, same design", "otherCopy"),
        line("different designs", "otherDesign"),
        `front hash distance within a design: median ${quantile(hashSameDesign, 0.5)}, max ${quantile(hashSameDesign, 1)} bits of 64`,
      ].join("\n"),
    );
    expect(refused).toEqual([]);
    expect(matched.sameCopy / rows.sameCopy.length).toBeGreaterThanOrEqual(0.95);
    expect(matched.otherCopy / rows.otherCopy.length).toBeLessThanOrEqual(0.01);
    expect(matched.otherDesign).toBe(0);
  });
});
