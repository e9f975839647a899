// The README walkthrough submits these photos and promises the demo catalog identifies them.
import { describe, expect, it } from "vitest";
import { DEMO_REFERENCE_CARDS, jpeg, photoScene, referenceScene } from "../../scripts/lib/demo-photos";
import { BuiltinEngine } from "../../src/grading/engine/builtin";
import type { CatalogReference } from "../../src/grading/engine/identify";
import { referenceHash } from "../../src/grading/engine/reference";
import { backOf } from "../helpers/card-images";

describe("demo photos", { timeout: 60_000 }, () => {
  const references: CatalogReference[] = DEMO_REFERENCE_CARDS.map((card) => ({
    id: card.catalogId,
    hash: referenceHash(jpeg(referenceScene(card), 92)),
    player: card.player,
    year: "2020",
    brand: "Demo",
    set: "Demo",
    card_number: "1",
    variant: null,
    category: "Baseball",
    value_cents: 10_000,
  }));

  it.each(DEMO_REFERENCE_CARDS.map((card) => [card.slug, card] as const))(
    "%s: the phone photo grades and is identified as its catalog card",
    async (_slug, card) => {
      const photo = photoScene(card);
      const result = await new BuiltinEngine().grade({
        front: { bytes: jpeg(photo), contentType: "image/jpeg" },
        back: { bytes: jpeg(backOf(photo)), contentType: "image/jpeg" },
        references,
      });
      if (result.status !== "graded") throw new Error(JSON.stringify(result));
      expect(result.card.catalog_id).toBe(card.catalogId);
      expect(result.card.confidence).toBe("high");
    },
  );
});
