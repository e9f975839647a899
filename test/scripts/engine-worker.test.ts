// The engine-only Worker behind `npm run measure` and `npm run bench:engine-memory`
// (scripts/bench/engine-worker.ts): what it answers for one photo read as one face.
import { describe, expect, it } from "vitest";
import engineWorker from "../../scripts/bench/engine-worker";
import type { FaceOutcome } from "../helpers/face-outcome";
import { REAL_PHOTOS, realPhotoBytes } from "../helpers/real-photos";
import { photo, sceneWith } from "../helpers/submissions";

const post = (path: string, body: Uint8Array) =>
  engineWorker.fetch(new Request(`http://engine.test${path}`, { method: "POST", body }));

const outcomeOf = async (response: Response) => ((await response.json()) as { outcome: FaceOutcome }).outcome;

describe("the engine-only Worker", { timeout: 60_000 }, () => {
  it("answers a real photo's centering with the borders behind it, as the real-photo tests read it", async () => {
    const photo = REAL_PHOTOS.ritesOfFlourishing;
    const response = await post("/face?name=front", realPhotoBytes(photo));
    expect(response.status).toBe(200);
    const outcome = await outcomeOf(response);
    if (!outcome.graded) throw new Error(`expected a centering, got: ${outcome.message}`);
    expect(Math.abs(outcome.leftRight - photo.byHand.leftRight)).toBeLessThanOrEqual(1);
    expect(Math.abs(outcome.topBottom - photo.byHand.topBottom)).toBeLessThanOrEqual(1);
    // The centering is the borders' shares (to 0.01 mm).
    const { left, right, top, bottom } = outcome.bordersMm;
    expect(Math.abs((100 * left) / (left + right) - outcome.leftRight)).toBeLessThan(0.1);
    expect(Math.abs((100 * top) / (top + bottom) - outcome.topBottom)).toBeLessThan(0.1);
  });

  it("answers a refusal with the engine's reason, naming the face asked for", async () => {
    const slab = await outcomeOf(await post("/face?name=back", realPhotoBytes(REAL_PHOTOS.counterspellBgs)));
    expect(slab.graded).toBe(false);
    if (slab.graded) return;
    expect(slab.message).toMatch(/^The back photo/);
    const empty = await outcomeOf(await post("/face", new Uint8Array(0)));
    expect(empty).toEqual({ graded: false, message: "The front image is empty." });
  });

  it("tells a back whose frame is not measured, which a grading leaves out of centering, from a refusal", async () => {
    // A card printed in one colour to its cut: found and measured, but no frame to find.
    const plain = photo(sceneWith({ artColor: sceneWith({}).borderColor }));
    const asBack = await outcomeOf(await post("/face?name=back", plain));
    expect(asBack).toMatchObject({
      graded: false,
      centeringLeftOut: true,
      message: expect.stringMatching(/printed frame/),
    });
    const asFront = await outcomeOf(await post("/face?name=front", plain));
    expect(asFront.graded).toBe(false);
    expect(asFront).not.toHaveProperty("centeringLeftOut");
  });

  it("reads the photo made again when asked for a variant, and names the variants it makes", async () => {
    const upright = photo(sceneWith({}));
    const own = await outcomeOf(await post("/face?name=front", upright));
    const mirrored = await outcomeOf(await post("/face?name=front&variant=mirrored", upright));
    if (!own.graded || !mirrored.graded) throw new Error("expected both read as centerings");
    // Mirrored, the card's left border is the photo's right one.
    expect(Math.abs(100 - mirrored.leftRight - own.leftRight)).toBeLessThan(0.5);
    expect(Math.abs(mirrored.bordersMm.left - own.bordersMm.right)).toBeLessThan(0.05);
    const unknown = await post("/face?name=front&variant=sideways", upright);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toBe(
      "variant must be one of copy, mirrored, turned, smaller, half, recompressed, warm, cool",
    );
    const unreadable = await post("/face?variant=turned", new Uint8Array([0xff, 0xd8, 0xff]));
    expect(unreadable.status).toBe(400);
    expect(await unreadable.text()).toMatch(/^the photo could not be decoded to make it turned: /);
  });

  it("asks for a POST", async () => {
    const response = await engineWorker.fetch(new Request("http://engine.test/face"));
    expect(response.status).toBe(405);
  });
});
