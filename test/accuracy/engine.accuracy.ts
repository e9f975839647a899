// `npm run accuracy`: the built-in engine on drawn phone-like photos with real photographs as card
// art and real table textures (test/helpers/scene-sets.ts `realisticScenes`). Prints one row per
// category: cases, graded, refused, centering within 1 point, worst centering error, false wear on
// graded pristine cards (a wear subgrade below 9) and wear found on graded worn cards (the worn
// subgrade at 8 or below). Figures, not thresholds: the only assertion is that every photo gets an answer.
import { expect, it } from "vitest";
import { BuiltinEngine } from "../../src/grading/engine/builtin";
import { drawCardScene, encodeJpeg, truthOf } from "../helpers/card-images";
import { artPhoto, tablePhoto } from "../helpers/photos";
import { type RealisticCase, realisticScenes } from "../helpers/scene-sets";

interface Row {
  cases: number;
  graded: number;
  refused: number;
  within1: number;
  worstError: number;
  pristine: number;
  falseWear: number;
  worn: number;
  wearFound: number;
}

const emptyRow = (): Row => ({
  cases: 0,
  graded: 0,
  refused: 0,
  within1: 0,
  worstError: 0,
  pristine: 0,
  falseWear: 0,
  worn: 0,
  wearFound: 0,
});

it("grades the realistic photo set and prints the accuracy table", async () => {
  const engine = new BuiltinEngine();
  const cases = realisticScenes({ art: artPhoto, table: tablePhoto });
  const rows = new Map<string, Row>();
  const details: string[] = [];
  for (const c of cases) {
    const row = rows.get(c.category) ?? emptyRow();
    rows.set(c.category, row);
    const result = await gradeCase(engine, c);
    expect(["graded", "rejected"]).toContain(result.status);
    row.cases++;
    if (result.status !== "graded") {
      row.refused++;
      details.push(`  refused  ${c.name}: ${result.status === "rejected" ? result.message : result.status}`);
      continue;
    }
    row.graded++;
    // Wear is counted over graded cards: a refused card has no subgrades to be wrong about.
    if (c.worn.length === 0) row.pristine++;
    else row.worn++;
    const truth = truthOf(c.scene);
    const error = Math.max(
      Math.abs(result.centering_offset.horizontal - truth.horizontal),
      Math.abs(result.centering_offset.vertical - truth.vertical),
    );
    if (error <= 1) row.within1++;
    row.worstError = Math.max(row.worstError, error);
    const { corners, edges, surface } = result.grades;
    if (c.worn.length === 0 && Math.min(corners, edges, surface) < 9) row.falseWear++;
    if (c.worn.length > 0 && c.worn.every((subgrade) => result.grades[subgrade] <= 8)) row.wearFound++;
    details.push(
      `  graded   ${c.name}: centering error ${error.toFixed(2)}, corners ${corners}, edges ${edges}, surface ${surface}${c.worn.length ? ` (worn: ${c.worn.join(", ")})` : ""}`,
    );
  }
  const total = emptyRow();
  const lines = [
    "| Category | Cases | Graded | Refused | Within 1 pt | Worst centering error | False wear on pristine | Wear found on worn |",
    "|---|---|---|---|---|---|---|---|",
  ];
  const format = (name: string, r: Row) =>
    `| ${name} | ${r.cases} | ${r.graded} | ${r.refused} | ${r.within1} | ${r.graded ? r.worstError.toFixed(2) : "–"} | ${r.pristine ? `${r.falseWear} of ${r.pristine}` : "–"} | ${r.worn ? `${r.wearFound} of ${r.worn}` : "–"} |`;
  for (const [name, r] of rows) {
    lines.push(format(name, r));
    for (const key of Object.keys(total) as (keyof Row)[]) {
      total[key] = key === "worstError" ? Math.max(total[key], r[key]) : total[key] + r[key];
    }
  }
  lines.push(format("**all**", total));
  console.log(`\nBuilt-in engine, realistic drawn photos\n${lines.join("\n")}\n${details.join("\n")}\n`);
  expect(total.cases).toBe(cases.length);
});

async function gradeCase(engine: BuiltinEngine, c: RealisticCase) {
  const front = encodeJpeg(drawCardScene(c.scene), c.quality);
  const back = encodeJpeg(drawCardScene(c.back), c.quality);
  return engine.grade({
    front: { bytes: front, contentType: "image/jpeg" },
    back: { bytes: back, contentType: "image/jpeg" },
  });
}
