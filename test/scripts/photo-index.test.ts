// The index `npm run measure` reads beside a folder of photos (scripts/lib/photo-index.ts).
import { describe, expect, it } from "vitest";
import { parsePhotoIndex } from "../../scripts/lib/photo-index";

describe("the photo index of npm run measure", () => {
  it("reads each photo's kind, and its face when the header names a face column, in any column order", () => {
    const index = parsePhotoIndex(
      [
        "face\tfile\tdescription\tkind",
        "back\tblue-back.png\ta card back\traw-on-table",
        "front\tcard.jpg\ta card\traw-on-table",
        "\tslab.jpg\ta slab, no face named\tslab",
        "\tnameless.jpg\t\t",
      ].join("\r\n"),
      "INDEX.tsv",
    );
    expect(index.get("blue-back.png")).toEqual({ kind: "raw-on-table", face: "back" });
    expect(index.get("card.jpg")).toEqual({ kind: "raw-on-table", face: "front" });
    expect(index.get("slab.jpg")).toEqual({ kind: "slab", face: null });
    expect(index.get("nameless.jpg")).toEqual({ kind: "unlabelled", face: null });
    expect(index.size).toBe(4);
  });

  it("reads an index without a face column, every photo then read as the command line's face", () => {
    const index = parsePhotoIndex("file\tkind\ncard.jpg\tscan\n\n", "old.tsv");
    expect([...index]).toEqual([["card.jpg", { kind: "scan", face: null }]]);
  });

  it("refuses an index without file and kind columns, or with a face that is neither front nor back", () => {
    expect(() => parsePhotoIndex("name\tkind\ncard.jpg\tscan", "a.tsv")).toThrow(
      'a.tsv: the header names no "file" and "kind" columns',
    );
    expect(() => parsePhotoIndex("file\tkind\tface\ncard.jpg\tscan\tside", "b.tsv")).toThrow(
      'b.tsv: card.jpg\'s face is "side", not front or back',
    );
  });
});
