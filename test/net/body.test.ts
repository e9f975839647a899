import { describe, expect, it } from "vitest";
import { decodeBase64, readCapped } from "../../src/net/body";

describe("decodeBase64", () => {
  it("decodes padded and unpadded base64, a data: URL and wrapped lines", () => {
    expect(decodeBase64("AAEC/w==")).toEqual(new Uint8Array([0, 1, 2, 255]));
    expect(decodeBase64("AAEC/w")).toEqual(new Uint8Array([0, 1, 2, 255]));
    expect(decodeBase64("data:image/jpeg;base64,AAEC")).toEqual(new Uint8Array([0, 1, 2]));
    expect(decodeBase64("AA\nEC\r\n")).toEqual(new Uint8Array([0, 1, 2]));
  });

  it("refuses what is not base64", () => {
    for (const bad of ["A", "@@@@", "AA=A", "AAEC===", "not base64!"]) expect(decodeBase64(bad), bad).toBeNull();
  });
});

describe("readCapped", () => {
  const stream = (chunks: number[], pulled: { count: number }) =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        const size = chunks[pulled.count];
        if (size === undefined) return controller.close();
        pulled.count++;
        controller.enqueue(new Uint8Array(size).fill(7));
      },
    });

  it("returns the whole body up to the cap", async () => {
    const pulled = { count: 0 };
    expect(await readCapped(stream([3, 4], pulled), 7)).toEqual(new Uint8Array(7).fill(7));
  });

  it("stops reading as soon as the cap is passed", async () => {
    const pulled = { count: 0 };
    expect(await readCapped(stream([4, 4, 4, 4], pulled), 7)).toBeNull();
    // Two chunks read; the stream may have pulled one more ahead, never the rest.
    expect(pulled.count).toBeLessThanOrEqual(3);
  });
});
