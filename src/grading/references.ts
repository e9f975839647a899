// Catalog cards with a reference hash, the set identification compares a front against. Read once
// per isolate per minute: the catalog changes rarely and a submission should not pay a scan of it.
import { and, eq, isNotNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { catalogCards, catalogCategories } from "../db/schema";
import type { CatalogReference } from "./engine/types";
import type { ValuedCatalogCard } from "./engine/value";

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
    .where(and(isNotNull(catalogCards.referenceHash), eq(catalogCards.verified, true)));
  const references = rows.flatMap((row) => (row.hash ? [{ ...row, hash: row.hash }] : []));
  cached = { references, expiresAt: now + REFERENCES_TTL_MS };
  return references;
}

let cachedValues: { cards: ValuedCatalogCard[]; expiresAt: number } | null = null;

/** Every verified catalog card with its raw value: what unidentified cards are valued against. */
export async function loadCatalogValues(db: Database, now = Date.now()): Promise<ValuedCatalogCard[]> {
  if (cachedValues && cachedValues.expiresAt > now) return cachedValues.cards;
  const cards = await db
    .select({
      id: catalogCards.id,
      player: catalogCards.playerName,
      year: catalogCards.year,
      brand: catalogCards.brand,
      set: catalogCards.setName,
      category: catalogCategories.name,
      value_cents: catalogCards.svcValue,
    })
    .from(catalogCards)
    .innerJoin(catalogCategories, eq(catalogCategories.id, catalogCards.categoryId))
    .where(eq(catalogCards.verified, true));
  cachedValues = { cards, expiresAt: now + REFERENCES_TTL_MS };
  return cards;
}

/** A catalog import or merge takes effect at once in this isolate. */
export function forgetCatalogReferences(): void {
  cached = null;
  cachedValues = null;
}

/**
 * The reference image of a verified catalog card, from R2: what the engine compares lines inside
 * the artwork with. Null when the card has none or the object is gone.
 */
export async function loadReferenceImage(
  db: Database,
  images: R2Bucket,
  catalogId: number,
): Promise<Uint8Array | null> {
  const row = await db
    .select({ key: catalogCards.referenceImageKey })
    .from(catalogCards)
    .where(and(eq(catalogCards.id, catalogId), eq(catalogCards.verified, true)))
    .get();
  if (!row?.key) return null;
  const object = await images.get(row.key);
  return object ? new Uint8Array(await object.arrayBuffer()) : null;
}
