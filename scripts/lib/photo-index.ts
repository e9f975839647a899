// The index `npm run measure` reads beside a folder of photos (scripts/measure-photos.ts): a
// tab-separated table whose header names a `file` and a `kind` column, and optionally a `face`
// column (`front` or `back`: which face each photo is read as). docs/real-photo-set.tsv is one.

export type Face = "front" | "back";

export interface IndexedPhoto {
  kind: string;
  /** The face the index names, or null (the command line's is used). */
  face: Face | null;
}

/** `file` → its kind and face, from the index's text; `source` names it in errors. */
export function parsePhotoIndex(text: string, source: string): Map<string, IndexedPhoto> {
  const [header = "", ...rows] = text.split(/\r?\n/).filter(Boolean);
  const columns = header.split("\t");
  const fileAt = columns.indexOf("file");
  const kindAt = columns.indexOf("kind");
  const faceAt = columns.indexOf("face");
  if (fileAt < 0 || kindAt < 0) throw new Error(`${source}: the header names no "file" and "kind" columns`);
  const entries = new Map<string, IndexedPhoto>();
  for (const row of rows) {
    const cells = row.split("\t");
    const file = cells[fileAt];
    if (!file) continue;
    const face = faceAt < 0 ? "" : (cells[faceAt] ?? "");
    if (face !== "" && face !== "front" && face !== "back")
      throw new Error(`${source}: ${file}'s face is "${face}", not front or back`);
    entries.set(file, { kind: cells[kindAt] || "unlabelled", face: face === "" ? null : face });
  }
  return entries;
}
