import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { writeWithStagedImages } from "../../src/storage/images";

// Images staged for rows that name them: whichever step fails, no image is left that no row names.

const image = (key: string) => ({ key, bytes: new Uint8Array([1, 2, 3]), contentType: "image/png" });

async function keysUnder(prefix: string) {
  return (await env.IMAGES.list({ prefix })).objects.map((o) => o.key).sort();
}

/** The real bucket, except that putting a key that ends in `bad.png` fails. */
function failingPut(): R2Bucket {
  return new Proxy(env.IMAGES, {
    get(target, property) {
      if (property === "put") {
        return (key: string, value: Uint8Array, options: R2PutOptions) =>
          key.endsWith("bad.png") ? Promise.reject(new Error("R2 is down")) : target.put(key, value, options);
      }
      const member = Reflect.get(target, property);
      return typeof member === "function" ? member.bind(target) : member;
    },
  });
}

describe("writeWithStagedImages", () => {
  it("puts the images before the write and keeps them when the write succeeds", async () => {
    const seen: string[][] = [];
    const result = await writeWithStagedImages(env.IMAGES, [image("staged/ok/a.png"), null, image("staged/ok/b.png")], {
      write: async () => {
        seen.push(await keysUnder("staged/ok/"));
        return 7;
      },
    });
    expect(result).toBe(7);
    expect(seen).toEqual([["staged/ok/a.png", "staged/ok/b.png"]]);
    expect(await keysUnder("staged/ok/")).toEqual(["staged/ok/a.png", "staged/ok/b.png"]);
  });

  it("deletes the images and throws the write's error when the write fails", async () => {
    const failed = writeWithStagedImages(env.IMAGES, [image("staged/write/a.png")], {
      write: () => Promise.reject(new Error("D1 refused")),
    });
    await expect(failed).rejects.toThrow("D1 refused");
    expect(await keysUnder("staged/write/")).toEqual([]);
  });

  it("does not write and deletes the other images when a put fails", async () => {
    let writes = 0;
    const failed = writeWithStagedImages(failingPut(), [image("staged/put/a.png"), image("staged/put/bad.png")], {
      write: async () => {
        writes++;
      },
    });
    await expect(failed).rejects.toThrow("R2 is down");
    expect(writes).toBe(0);
    expect(await keysUnder("staged/put/")).toEqual([]);
  });

  it("written alongside the puts, undoes the write when a put fails", async () => {
    const undone: number[] = [];
    const failed = writeWithStagedImages(failingPut(), [image("staged/along/a.png"), image("staged/along/bad.png")], {
      write: async () => 42,
      undoWrite: async (written) => {
        undone.push(written);
      },
    });
    await expect(failed).rejects.toThrow("R2 is down");
    expect(undone).toEqual([42]);
    expect(await keysUnder("staged/along/")).toEqual([]);
  });
});
