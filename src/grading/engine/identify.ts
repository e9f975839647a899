// Identification and value: the nearest catalog reference by perceptual hash, combined with the
// caller's hints; the catalog value of a raw copy scaled by a grade curve.
import { hammingDistance } from "./phash";

export interface CardHints {
  player?: string;
  year?: string;
  brand?: string;
  set?: string;
  card_number?: string;
  variant?: string;
  category?: string;
}

export interface CatalogReference {
  id: number;
  hash: string;
  player: string;
  year: string;
  brand: string;
  set: string;
  card_number: string;
  variant: string | null;
  category: string;
  /** Catalog value of a raw copy, US cents. */
  value_cents: number;
}

export type Confidence = "high" | "medium" | "low" | "none";

export interface Identification {
  catalog_id: number | null;
  player: string | null;
  year: string | null;
  brand: string | null;
  set: string | null;
  card_number: string | null;
  variant: string | null;
  category: string | null;
  confidence: Confidence;
  /** Hamming distance (0–64) of the front's hash to the chosen reference; null if none. */
  hash_distance: number | null;
  /** Where the fields come from: the catalog, the caller's hints, a hosted model, or nowhere. */
  source: "catalog" | "hints" | "model" | "none";
}

/** Hash distances: ≤ 8 of 64 bits is the same card, ≤ 14 probably the same. */
export const SAME_CARD = 8;
const PROBABLY_SAME = 14;

/**
 * Catalog cards the front's hash cannot tell apart from the identified one: within SAME_CARD bits,
 * nearest first, at most `limit` (the identified card need not be the nearest when hints decided).
 */
export function sameCardCandidates(frontHash: string, references: CatalogReference[], limit: number): number[] {
  return references
    .map((reference) => ({ id: reference.id, distance: hammingDistance(frontHash, reference.hash) }))
    .filter((candidate) => candidate.distance <= SAME_CARD)
    .sort((a, b) => a.distance - b.distance || a.id - b.id)
    .slice(0, limit)
    .map((candidate) => candidate.id);
}

const normalise = (value: string | undefined | null) => (value ?? "").trim().toLowerCase();

export function identifyCard(frontHash: string, hints: CardHints, references: CatalogReference[]): Identification {
  let best: { reference: CatalogReference; distance: number; score: number } | null = null;
  for (const reference of references) {
    const distance = hammingDistance(frontHash, reference.hash);
    // Each agreeing hint is worth two bits of hash distance.
    const agreeing = (["player", "year", "brand"] as const).filter(
      (field) => hints[field] !== undefined && normalise(hints[field]) === normalise(reference[field]),
    ).length;
    const score = distance - agreeing * 2;
    if (!best || score < best.score) best = { reference, distance, score };
  }
  if (best && best.distance <= PROBABLY_SAME) {
    const { reference, distance } = best;
    const hintsDisagree = (["player", "year", "brand"] as const).some(
      (field) => hints[field] !== undefined && normalise(hints[field]) !== normalise(reference[field]),
    );
    const confidence: Confidence = distance <= SAME_CARD && !hintsDisagree ? "high" : "medium";
    return {
      catalog_id: reference.id,
      player: reference.player,
      year: reference.year,
      brand: reference.brand,
      set: reference.set,
      card_number: reference.card_number,
      variant: reference.variant,
      category: reference.category,
      confidence,
      hash_distance: distance,
      source: "catalog",
    };
  }
  const hinted = hints.player !== undefined || hints.year !== undefined || hints.brand !== undefined;
  return {
    catalog_id: null,
    player: hints.player ?? null,
    year: hints.year ?? null,
    brand: hints.brand ?? null,
    set: hints.set ?? null,
    card_number: hints.card_number ?? null,
    variant: hints.variant ?? null,
    category: hints.category ?? null,
    confidence: hinted ? "low" : "none",
    hash_distance: best?.distance ?? null,
    source: hinted ? "hints" : "none",
  };
}

/**
 * Multiple of the raw catalog value a graded copy sells for, by grade. Shaped on public sales of
 * graded modern cards: a 10 is a multiple of a 9, which is a multiple of an 8; below 6 a graded
 * copy is worth about a raw one.
 */
export const GRADE_CURVE: readonly { grade: number; multiple: number }[] = [
  { grade: 10, multiple: 6 },
  { grade: 9.5, multiple: 3.5 },
  { grade: 9, multiple: 2.2 },
  { grade: 8.5, multiple: 1.6 },
  { grade: 8, multiple: 1.35 },
  { grade: 7, multiple: 1.15 },
  { grade: 6, multiple: 1 },
  { grade: 5, multiple: 0.9 },
  { grade: 1, multiple: 0.6 },
];

/** How wide the low–high range is around mid, by identification confidence. */
const SPREAD: Record<Confidence, number> = { high: 0.15, medium: 0.3, low: 0.5, none: 0 };

export interface EstimatedValue {
  currency: "USD";
  low: number | null;
  mid: number | null;
  high: number | null;
  confidence: Confidence;
}

export function gradeMultiple(grade: number): number {
  const curve = GRADE_CURVE;
  for (let i = 0; i < curve.length - 1; i++) {
    const upper = curve[i] as { grade: number; multiple: number };
    const lower = curve[i + 1] as { grade: number; multiple: number };
    if (grade >= lower.grade) {
      const t = (grade - lower.grade) / (upper.grade - lower.grade);
      return lower.multiple + t * (upper.multiple - lower.multiple);
    }
  }
  return curve.at(-1)?.multiple ?? 1;
}

export function estimateValue(
  identification: Identification,
  references: CatalogReference[],
  overall: number,
): EstimatedValue {
  const reference = references.find((r) => r.id === identification.catalog_id);
  if (!reference || identification.confidence === "none") {
    return { currency: "USD", low: null, mid: null, high: null, confidence: "none" };
  }
  const mid = (reference.value_cents / 100) * gradeMultiple(overall);
  const spread = SPREAD[identification.confidence];
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    currency: "USD",
    low: round(mid * (1 - spread)),
    mid: round(mid),
    high: round(mid * (1 + spread)),
    confidence: identification.confidence,
  };
}
