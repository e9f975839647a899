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
// This is how the engine is measured on real photos that cannot be committed with the tests:
// docs/engine.md gives the figures.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { FaceOutcome } from "../test/helpers/face-outcome.ts";
import { ENGINE_WORKER_URL, withEngineWorker } from "./lib/engine-worker-server.ts";
import { type Face, parsePhotoIndex } from "./lib/photo-index.ts";

const IMAGE = /\.(jpe?g|png|webp)$/i;
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
const indexAt = args.indexOf("--index");
const indexPath = indexAt >= 0 ? (args[indexAt + 1] ?? null) : null;
if (indexAt >= 0 && !indexPath) throw new Error("--index needs a file");
const inputs = args.filter((arg, i) => !arg.startsWith("--") && (indexAt < 0 || i !== indexAt + 1));
if (inputs.length === 0) {
  console.error("usage: npm run measure -- <photo or folder>… [--back] [--index FILE]");
  process.exit(2);
}
const photos = photosOf(inputs, indexPath);
if (photos.length === 0) throw new Error("no .jpg, .jpeg, .png or .webp photos found there");

const backs = photos.filter((photo) => (photo.face ?? defaultFace) === "back").length;
console.log(
  `Reading ${photos.length} photo(s), ${backs === 0 ? "each as the front" : backs === photos.length ? "each as the back" : `${backs} as the back and the rest as the front`}, in workerd…\n`,
);
const tally = new Map<string, { photos: number; graded: number; leftOut: number }>();
await withEngineWorker(async () => {
  console.log("| photo | kind | face | ms | answer |\n|---|---|---|---|---|");
  for (const photo of photos) {
    const face = photo.face ?? defaultFace;
    const response = await fetch(`${ENGINE_WORKER_URL}/face?name=${face}`, {
      method: "POST",
      body: readFileSync(photo.file),
      signal: AbortSignal.timeout(PHOTO_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`${photo.file}: the engine's Worker answered ${response.status}`);
    const { outcome, ms } = (await response.json()) as { outcome: FaceOutcome; ms: number };
    const row = tally.get(photo.kind) ?? { photos: 0, graded: 0, leftOut: 0 };
    row.photos++;
    if (outcome.graded) row.graded++;
    else if (outcome.centeringLeftOut) row.leftOut++;
    tally.set(photo.kind, row);
    console.log(`| ${path.basename(photo.file)} | ${photo.kind} | ${face} | ${ms} | ${answerOf(outcome)} |`);
  }
});
console.log(
  "\n| kind | photos | graded | backs not refused, their centering left out | refused |\n|---|---|---|---|---|",
);
for (const [kind, row] of tally)
  console.log(
    `| ${kind} | ${row.photos} | ${row.graded} | ${row.leftOut} | ${row.photos - row.graded - row.leftOut} |`,
  );
