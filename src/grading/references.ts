// Catalog cards with a reference hash, the set identification compares a front against. Read once
// per isolate per minute: the catalog changes rarely and a submission should not pay a scan of it.
import { eq, isNotNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { catalogCards, catalogCategories } from "../db/schema";
import type { CatalogReference } from "./engine/types";

const REFERENCES_TTL_MS = 60_000;
let cached: { references: CatalogReference[]; expiresAt: number } | null = null;

export async function loadCatalogReferences(db: Database, now = Date.now()): Promise<CatalogReference[]> {
  if (cached && cached.expiresAt > now) return cached.references;
  const rows = await db
    .select({
      id: catalogCards.id,
      hash: catalogCards.referenceHash,
      player: catalogCards.playerName,
      year: catalogCards.year,
      brand: catalogCards.brand,
      set: catalogCards.setName,
      card_number: catalogCards.cardNumber,
      variant: catalogCards.variant,
      category: catalogCategories.name,
      value_cents: catalogCards.svcValue,
    })
    .from(catalogCards)
    .innerJoin(catalogCategories, eq(catalogCategories.id, catalogCards.categoryId))
    .where(isNotNull(catalogCards.referenceHash));
  const references = rows.flatMap((row) => (row.hash ? [{ ...row, hash: row.hash }] : []));
  cached = { references, expiresAt: now + REFERENCES_TTL_MS };
  return references;
}

/** A catalog import makes its card identifiable at once in this isolate. */
export function forgetCatalogReferences(): void {
  cached = null;
}
