// A value for every certificate. An identified card is valued from its catalog entry (the engine's
// `estimateValue`, basis `catalog_match`). A card the engine could not identify is valued from
// comparable catalog cards (the declared category, brand, year, set and player, nearest first),
// and when nothing is comparable from the whole catalog; the method is written in the README
// ("Estimated value").
import { type Confidence, type EstimatedValue, gradeMultiple } from "./identify";

export type ValueBasis = "catalog_match" | "comparables" | "catalog_wide";

export interface CertificateValue {
  currency: "USD";
  low: number;
  mid: number;
  high: number;
  confidence: Confidence;
  basis: ValueBasis;
  /** The value of a raw copy in US cents the estimate starts from (an unverified entry's svc_value). */
  raw_cents: number;
}

/** A verified catalog card with what comparables are chosen by. */
export interface ValuedCatalogCard {
  id: number;
  player: string;
  year: string;
  brand: string;
  set: string;
  category: string;
  value_cents: number;
}

/** The card fields a submitter declared (or a hosted model read) for a card not in the catalog. */
export interface DeclaredCard {
  player: string | null;
  year: string | null;
  brand: string | null;
  set: string | null;
  category: string | null;
}

/** At most this many comparables, the nearest ones, make an estimate. */
export const MAX_COMPARABLES = 5;

const normalise = (value: string | null) => (value ?? "").trim().toLowerCase();
const round = (value: number) => Math.round(value * 100) / 100;

/**
 * Distance of a catalog card from the declared fields, or null when it is not comparable: a card is
 * comparable when it shares at least one declared field of category, brand, set or player and does
 * not contradict a declared category. Weights: a different player or set counts more than a
 * different brand; years count by how far apart they are (capped at 5 years).
 */
export function comparableDistance(declared: DeclaredCard, card: ValuedCatalogCard): number | null {
  const category = normalise(declared.category);
  if (category !== "" && normalise(card.category) !== category) return null;
  let shared = category !== "" ? 1 : 0;
  let distance = 0;
  for (const [field, weight] of [
    ["brand", 2],
    ["set", 3],
    ["player", 4],
  ] as const) {
    const wanted = normalise(declared[field]);
    if (wanted === "") continue;
    if (normalise(card[field]) === wanted) shared++;
    else distance += weight;
  }
  const declaredYear = Number.parseInt(declared.year ?? "", 10);
  const cardYear = Number.parseInt(card.year, 10);
  if (Number.isFinite(declaredYear) && Number.isFinite(cardYear)) {
    distance += Math.min(Math.abs(declaredYear - cardYear), 5);
  }
  return shared > 0 ? distance : null;
}

/** The p-quantile (0–1) of sorted values, interpolated. */
function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const at = (sorted.length - 1) * p;
  const lower = Math.floor(at);
  const upper = Math.ceil(at);
  const a = sorted[lower] ?? 0;
  const b = sorted[upper] ?? a;
  return a + (b - a) * (at - lower);
}

function fromRawValues(
  rawCents: readonly number[],
  overall: number,
  basis: "comparables" | "catalog_wide",
): CertificateValue {
  const sorted = [...rawCents].sort((a, b) => a - b);
  const multiple = gradeMultiple(overall);
  const midRaw = quantile(sorted, 0.5);
  // Comparables: their whole spread; the whole catalog: its middle half, so one rare card does not
  // make the range meaningless.
  let lowRaw = basis === "comparables" ? (sorted[0] ?? 0) : quantile(sorted, 0.25);
  let highRaw = basis === "comparables" ? (sorted.at(-1) ?? 0) : quantile(sorted, 0.75);
  // When the values (nearly) agree, low/high still need a range: the spread the engine gives a
  // low-confidence identification (±50 %).
  if (highRaw - lowRaw < midRaw * 0.1) {
    lowRaw = midRaw * 0.5;
    highRaw = midRaw * 1.5;
  }
  return {
    currency: "USD",
    low: round((lowRaw / 100) * multiple),
    mid: round((midRaw / 100) * multiple),
    high: round((highRaw / 100) * multiple),
    confidence: basis === "comparables" ? "low" : "none",
    basis,
    raw_cents: Math.round(midRaw),
  };
}

/** Value of an unidentified card: its nearest comparables, else the whole catalog, at the grade. */
export function valueUnidentified(
  declared: DeclaredCard,
  catalog: readonly ValuedCatalogCard[],
  overall: number,
): CertificateValue {
  const comparables = catalog
    .flatMap((card) => {
      const distance = comparableDistance(declared, card);
      return distance === null ? [] : [{ card, distance }];
    })
    .sort((a, b) => a.distance - b.distance || a.card.id - b.card.id)
    .slice(0, MAX_COMPARABLES);
  if (comparables.length > 0) {
    return fromRawValues(
      comparables.map(({ card }) => card.value_cents),
      overall,
      "comparables",
    );
  }
  return fromRawValues(
    catalog.map((card) => card.value_cents),
    overall,
    "catalog_wide",
  );
}

/**
 * The certificate's value: the engine's catalog-based estimate when the card was identified in the
 * catalog and the estimate has numbers; otherwise from comparables or the whole catalog.
 */
export function certificateValue(args: {
  catalogId: number | null;
  engineValue: EstimatedValue;
  declared: DeclaredCard;
  catalog: readonly ValuedCatalogCard[];
  overall: number;
}): CertificateValue {
  const { engineValue } = args;
  const match = args.catalog.find((card) => card.id === args.catalogId);
  if (args.catalogId !== null && engineValue.low !== null && engineValue.mid !== null && engineValue.high !== null) {
    return {
      currency: "USD",
      low: engineValue.low,
      mid: engineValue.mid,
      high: engineValue.high,
      confidence: engineValue.confidence,
      basis: "catalog_match",
      raw_cents: match?.value_cents ?? Math.round((engineValue.mid * 100) / gradeMultiple(args.overall)),
    };
  }
  return valueUnidentified(args.declared, args.catalog, args.overall);
}

/** A raw copy's value in US cents for declared fields (the svc_value of an unverified entry). */
export function rawValueCents(declared: DeclaredCard, catalog: readonly ValuedCatalogCard[]): number {
  // The grade multiple scales low/mid/high only; the raw value it starts from does not depend on it.
  return valueUnidentified(declared, catalog, 6).raw_cents;
}
