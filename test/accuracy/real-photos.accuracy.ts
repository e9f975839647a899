// `npm run accuracy`: the built-in engine on the real phone photos committed with the tests
// (test/fixtures/real-photos, openly licensed). One row per photo: what it shows, what the engine
// answered (a centering, or its reason for refusing), and, where the centering was measured by
// hand, how far the engine's is from it. A summary row per kind. Figures, not thresholds:
// test/grading/real-photos.test.ts holds the engine to them.
import { expect, it } from "vitest";
import { outcomeOf, REAL_PHOTOS, type RealPhoto, type RealPhotoKind } from "../helpers/real-photos";

it("reads every committed real photo and prints what it answered", () => {
  const rows: string[] = [];
  const kinds = new Map<RealPhotoKind, { photos: number; graded: number; within1: number }>();
  for (const photo of Object.values(REAL_PHOTOS) as RealPhoto[]) {
    const outcome = outcomeOf(photo);
    const tally = kinds.get(photo.kind) ?? { photos: 0, graded: 0, within1: 0 };
    tally.photos++;
    let answer: string;
    if (outcome.graded) {
      tally.graded++;
      answer = `graded ${outcome.leftRight.toFixed(1)} / ${outcome.topBottom.toFixed(1)}`;
      if (photo.byHand) {
        const error = Math.max(
          Math.abs(outcome.leftRight - photo.byHand.leftRight),
          Math.abs(outcome.topBottom - photo.byHand.topBottom),
        );
        if (error <= 1) tally.within1++;
        answer += ` (by hand ${photo.byHand.leftRight} / ${photo.byHand.topBottom}, ${error.toFixed(1)} points off)`;
      } else {
        answer += " (not measured by hand)";
      }
    } else {
      answer = `refused: ${outcome.message}`;
    }
    kinds.set(photo.kind, tally);
    rows.push(`| ${photo.file} | ${photo.kind} | ${answer} |`);
    expect(outcome.graded || outcome.message.length > 0).toBe(true);
  }
  const summary = [...kinds].map(
    ([kind, t]) => `| ${kind} | ${t.photos} | ${t.graded} | ${t.photos - t.graded} | ${t.within1} |`,
  );
  console.log(
    [
      "\nBuilt-in engine, committed real photos (front only)",
      "| kind | photos | graded | refused | graded within 1 point of the hand measurement |",
      "|---|---|---|---|---|",
      ...summary,
      "",
      "| photo | kind | answer |",
      "|---|---|---|",
      ...rows,
      "",
    ].join("\n"),
  );
});
