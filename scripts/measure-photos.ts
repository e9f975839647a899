// `npm run measure -- <photo or folder>… [--back] [--index FILE]`: the built-in engine on your own
// photos, in workerd (the engine alone in a Worker, scripts/bench/engine-worker.ts). Each photo is
// read as one face (the front, or the back with --back), as a grading reads it: one row per photo
// with the centering and the borders behind it, or the reason the engine refuses, then a summary.
// Folders are read for .jpg, .jpeg, .png and .webp files. With an index (a tab-separated file
// whose header names a `file` and a `kind` column; by default the folder's INDEX.tsv when there is
// one), photos are counted per kind, and only indexed photos are read from that folder; a `face`
// column, when the header names one, reads each photo as the face it names (`front` or `back`).
// A back whose card is measured but whose frame is not is counted apart: a grading leaves such a
// back out of centering and goes on (builtin.ts), so it is not refused.
// With --stability, each photo graded is made again seven ways and a plain copy
// (scripts/lib/photo-variants.ts: mirrored, turned half round, stored smaller, at half its size,
// recompressed, under a warm and under a cool cast) and
// read again: how far each answer moves from the photo's own, read back to the original's sides,
// or whether it is refused. An answer that moves by more than STABLE_POINTS rests on something
// other than the card.
// This is how the engine is measured on real photos that cannot be committed with the tests:
// docs/engine.md gives the figures.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { FaceOutcome } from "../test/helpers/face-outcome.ts";
import { ENGINE_WORKER_URL, withEngineWorker } from "./lib/engine-worker-server.ts";
import { type Face, parsePhotoIndex } from "./lib/photo-index.ts";
import { asOriginal, VARIANTS, type Variant } from "./lib/photo-variants.ts";

const IMAGE = /\.(jpe?g|png|webp)$/i;
/** A variant's centering may move this far (points, on either axis) from the photo's own and still agree with it. */
const STABLE_POINTS = 1;
/** Each photo's answer is awaited at most this long. */
const PHOTO_TIMEOUT_MS = 60_000;

interface Photo {
  file: string;
  kind: string;
  /** The face it is read as: the index's, else the command line's. */
  face: Face | null;
}

function photosOf(args: string[], indexPath: string | null): Photo[] {
  const readIndex = (file: string) => parsePhotoIndex(readFileSync(file, "utf8"), file);
  const given = indexPath ? readIndex(indexPath) : null;
  const photos: Photo[] = [];
  for (const arg of args) {
    if (!existsSync(arg)) throw new Error(`${arg}: no such file or folder`);
    if (statSync(arg).isDirectory()) {
      const folderIndex = path.join(arg, "INDEX.tsv");
      const kinds = given ?? (existsSync(folderIndex) ? readIndex(folderIndex) : null);
      for (const name of readdirSync(arg)
        .filter((n) => IMAGE.test(n))
        .sort()) {
        if (kinds && !kinds.has(name)) continue;
        const indexed = kinds?.get(name);
        photos.push({ file: path.join(arg, name), kind: indexed?.kind ?? "unlabelled", face: indexed?.face ?? null });
      }
    } else {
      const indexed = given?.get(path.basename(arg));
      photos.push({ file: arg, kind: indexed?.kind ?? "unlabelled", face: indexed?.face ?? null });
    }
  }
  return photos;
}

function answerOf(outcome: FaceOutcome): string {
  if (!outcome.graded && outcome.centeringLeftOut)
    return `not refused, the back's centering left out of the grade: ${outcome.message}`;
  if (!outcome.graded) return `refused: ${outcome.message}`;
  const b = outcome.bordersMm;
  return (
    `graded ${outcome.leftRight.toFixed(1)} / ${outcome.topBottom.toFixed(1)} (${outcome.format}; borders mm ` +
    `left ${b.left}, right ${b.right}, top ${b.top}, bottom ${b.bottom}; corners ${outcome.wear.corners}, ` +
    `edges ${outcome.wear.edges}, surface ${outcome.wear.surface})`
  );
}

const args = process.argv.slice(2);
const defaultFace: Face = args.includes("--back") ? "back" : "front";
const stability = args.includes("--stability");
const indexAt = args.indexOf("--index");
const indexPath = indexAt >= 0 ? (args[indexAt + 1] ?? null) : null;
if (indexAt >= 0 && !indexPath) throw new Error("--index needs a file");
const inputs = args.filter((arg, i) => !arg.startsWith("--") && (indexAt < 0 || i !== indexAt + 1));
if (inputs.length === 0) {
  console.error("usage: npm run measure -- <photo or folder>… [--back] [--index FILE] [--stability]");
  process.exit(2);
}
const photos = photosOf(inputs, indexPath);
if (photos.length === 0) throw new Error("no .jpg, .jpeg, .png or .webp photos found there");

const backs = photos.filter((photo) => (photo.face ?? defaultFace) === "back").length;
console.log(
  `Reading ${photos.length} photo(s), ${backs === 0 ? "each as the front" : backs === photos.length ? "each as the back" : `${backs} as the back and the rest as the front`}, in workerd…\n`,
);
const tally = new Map<string, { photos: number; graded: number; leftOut: number }>();
/** One photo read as one face by the engine's Worker, as uploaded or made again as `variant`. */
async function read(photo: Photo, face: Face, variant?: Variant): Promise<{ outcome: FaceOutcome; ms: number }> {
  const response = await fetch(`${ENGINE_WORKER_URL}/face?name=${face}${variant ? `&variant=${variant}` : ""}`, {
    method: "POST",
    body: readFileSync(photo.file),
    signal: AbortSignal.timeout(PHOTO_TIMEOUT_MS),
  });
  if (!response.ok) {
    throw new Error(`${photo.file}${variant ? ` (${variant})` : ""}: the engine's Worker answered ${response.status}`);
  }
  return (await response.json()) as { outcome: FaceOutcome; ms: number };
}
const graded: { photo: Photo; face: Face; outcome: Extract<FaceOutcome, { graded: true }> }[] = [];
await withEngineWorker(async () => {
  console.log("| photo | kind | face | ms | answer |\n|---|---|---|---|---|");
  for (const photo of photos) {
    const face = photo.face ?? defaultFace;
    const { outcome, ms } = await read(photo, face);
    if (outcome.graded) graded.push({ photo, face, outcome });
    const row = tally.get(photo.kind) ?? { photos: 0, graded: 0, leftOut: 0 };
    row.photos++;
    if (outcome.graded) row.graded++;
    else if (outcome.centeringLeftOut) row.leftOut++;
    tally.set(photo.kind, row);
    console.log(`| ${path.basename(photo.file)} | ${photo.kind} | ${face} | ${ms} | ${answerOf(outcome)} |`);
  }
  if (stability) await readAgain();
});
console.log(
  "\n| kind | photos | graded | backs not refused, their centering left out | refused |\n|---|---|---|---|---|",
);
for (const [kind, row] of tally)
  console.log(
    `| ${kind} | ${row.photos} | ${row.graded} | ${row.leftOut} | ${row.photos - row.graded - row.leftOut} |`,
  );

/**
 * Every graded photo read again as each variant: per photo, how far (points) each answer lies from
 * the photo's own on the axis that moved most, read back to the original's sides; then per variant.
 */
async function readAgain(): Promise<void> {
  console.log(
    `\nStability: each graded photo made again and read again (points from its own answer; over ${STABLE_POINTS} in bold)\n`,
  );
  console.log(`| photo | ${VARIANTS.join(" | ")} |\n|---|${VARIANTS.map(() => "---|").join("")}`);
  const perVariant = new Map(VARIANTS.map((variant) => [variant, { within: 0, moved: 0, refused: 0, largest: 0 }]));
  let steady = 0;
  for (const { photo, face, outcome: own } of graded) {
    const cells: string[] = [];
    let held = true;
    for (const variant of VARIANTS) {
      const { outcome } = await read(photo, face, variant);
      const row = perVariant.get(variant) as { within: number; moved: number; refused: number; largest: number };
      if (!outcome.graded) {
        row.refused++;
        cells.push("refused");
        continue;
      }
      const back = asOriginal(variant, outcome.orientation, outcome.leftRight, outcome.topBottom);
      const moved = Math.max(Math.abs(back.leftRight - own.leftRight), Math.abs(back.topBottom - own.topBottom));
      row.largest = Math.max(row.largest, moved);
      if (moved > STABLE_POINTS) {
        row.moved++;
        held = false;
        cells.push(`**${moved.toFixed(2)}**`);
      } else {
        row.within++;
        cells.push(moved.toFixed(2));
      }
    }
    if (held) steady++;
    console.log(`| ${path.basename(photo.file)} | ${cells.join(" | ")} |`);
  }
  console.log(
    `\n| variant | graded photos read again | within ${STABLE_POINTS} point | moved more than ${STABLE_POINTS} point | largest move | refused |\n|---|---|---|---|---|---|`,
  );
  for (const [variant, row] of perVariant) {
    console.log(
      `| ${variant} | ${graded.length} | ${row.within} | ${row.moved} | ${row.largest.toFixed(2)} | ${row.refused} |`,
    );
  }
  console.log(
    `\n${steady} of ${graded.length} graded photos: no variant that was graded moved more than ${STABLE_POINTS} point.`,
  );
}
