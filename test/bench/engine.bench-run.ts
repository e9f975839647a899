// `npm run bench:engine`: the built-in engine in workerd on generated 2 MP and 12 MP JPEG pairs, a
// 12 MP pair whose card is small in the frame (its region read again from the photo), and the 2 MP
// pair again with its card in the catalog (its reference scan read and its frame measured).
// Prints median and p95 per pair for decode, geometry (finding, rectifying, frame, wear: the faces' analysis minus decoding), the whole
// grade (what a submission waits for) and the damage reports (drawn after the response, for a linked
// client's grade run only), and the decoders' peak WebAssembly memory. Not part of `npm test`: figures, no assertions.
import { it } from "vitest";
import { analyseFace } from "../../src/grading/engine/analyse-face";
import { BuiltinEngine, WORKING_MAX_SIDE } from "../../src/grading/engine/builtin";
import { decodeImage, peakCodecMemoryBytes, resetCodecMemoryPeak } from "../../src/grading/engine/decode";
import { referenceHash } from "../../src/grading/engine/reference";
import { backOf, drawCardScene, encodeJpeg, referenceScan } from "../helpers/card-images";
import { catalogReference } from "../helpers/catalog-reference";
import { benchScene } from "../helpers/scene-sets";

const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
  return `median ${at(0.5).toFixed(0).padStart(5)} ms  p95 ${at(0.95).toFixed(0).padStart(5)} ms`;
};

/** `catalog`: the card is in the catalog with a reference scan, read for the print-size check. */
async function run(label: string, width: number, height: number, runs: number, cardWidth?: number, catalog = false) {
  const scene = { ...benchScene(width, height), ...(cardWidth ? { cardWidth } : {}) };
  const front = encodeJpeg(drawCardScene(scene), 88);
  const back = encodeJpeg(drawCardScene(backOf(scene)), 88);
  const scan = encodeJpeg(drawCardScene(referenceScan(scene)), 92);
  const references = catalog ? [catalogReference(1, referenceHash(scan))] : [];
  const engine = new BuiltinEngine();
  const decode: number[] = [];
  const geometry: number[] = [];
  const whole: number[] = [];
  const reports: number[] = [];
  resetCodecMemoryPeak();
  for (let i = 0; i < runs + 1; i++) {
    let t = performance.now();
    const decodedFront = decodeImage(front, WORKING_MAX_SIDE);
    const decodedBack = decodeImage(back, WORKING_MAX_SIDE);
    const decodeMs = performance.now() - t;
    if (decodedFront.image.width === 0 || decodedBack.image.width === 0) throw new Error("nothing decoded");
    t = performance.now();
    // One face's whole analysis (decode, finding, rectifying, frame at two scales, wear), both faces.
    for (const bytes of [front, back]) {
      const analysed = analyseFace("front", bytes);
      if (!analysed.ok) throw new Error(analysed.rejection.message);
    }
    const geometryMs = performance.now() - t - decodeMs;
    t = performance.now();
    const result = await engine.grade({
      front: { bytes: front, contentType: "image/jpeg" },
      back: { bytes: back, contentType: "image/jpeg" },
      references,
      referenceImage: async () => scan,
    });
    const wholeMs = performance.now() - t;
    if (result.status !== "graded") throw new Error(JSON.stringify(result));
    if (catalog && result.evidence?.centering.print_size?.verdict !== "same")
      throw new Error("the print was not compared");
    t = performance.now();
    const drawn = await result.renderReports();
    const reportsMs = performance.now() - t;
    if (!drawn.damage_report_front || !drawn.damage_report_back) throw new Error("no damage reports");
    // The first run warms the isolate up; it is not counted.
    if (i === 0) continue;
    decode.push(decodeMs);
    geometry.push(geometryMs);
    whole.push(wholeMs);
    reports.push(reportsMs);
  }
  console.log(
    [
      `${label} (${(front.length / 1e6).toFixed(1)} + ${(back.length / 1e6).toFixed(1)} MB JPEG, ${runs} runs)`,
      `  decode (pair)    ${stats(decode)}`,
      `  analysis (pair)  ${stats(geometry)}`,
      `  whole grade      ${stats(whole)}`,
      `  damage reports   ${stats(reports)}  (after the response)`,
      `  peak WebAssembly memory of one decode: ${(peakCodecMemoryBytes() / 1e6).toFixed(1)} MB`,
    ].join("\n"),
  );
}

it("benchmarks the built-in engine", { timeout: 600_000 }, async () => {
  await run("2 MP pair (1632 × 1224)", 1632, 1224, 10);
  await run("12 MP pair (4000 × 3000)", 4000, 3000, 5);
  // 540 px wide: 3.2 px per mm in the 1500 px working image, measured on its region read at 6/8.
  await run("12 MP pair, card 540 px wide (region read again)", 4000, 3000, 5, 540);
  await run(
    "2 MP pair, card in the catalog (its reference scan read for the print-size check)",
    1632,
    1224,
    10,
    undefined,
    true,
  );
});
