// A catalog card as the engine's identification sees it: an id, its reference image's hash and
// the fields a certificate shows.
import type { CatalogReference } from "../../src/grading/engine/identify";

export function catalogReference(id: number, hash: string, value_cents = 10_000): CatalogReference {
  return {
    id,
    hash,
    player: `Player ${id}`,
    year: "2020",
    brand: "Topps",
    set: "Chrome",
    card_number: String(id),
    variant: null,
    category: "Baseball",
    value_cents,
  };
}
