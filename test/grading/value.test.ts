import { describe, expect, it } from "vitest";
import { gradeMultiple } from "../../src/grading/engine/identify";
import {
  certificateValue,
  comparableDistance,
  type ValuedCatalogCard,
  valueUnidentified,
} from "../../src/grading/engine/value";

const card = (id: number, fields: Partial<ValuedCatalogCard>): ValuedCatalogCard => ({
  id,
  player: "Someone",
  year: "2018",
  brand: "Topps",
  set: "Base",
  category: "Baseball",
  value_cents: 1000,
  ...fields,
});
const none = { player: null, year: null, brand: null, set: null, category: null };
const round = (value: number) => Math.round(value * 100) / 100;

describe("valuing an unidentified card", () => {
  const catalog = [
    card(1, { player: "Rookie A", brand: "Bowman", year: "2019", value_cents: 2000 }),
    card(2, { player: "Rookie B", brand: "Bowman", year: "2014", value_cents: 6000 }),
    card(3, { player: "Charizard", brand: "Wizards", category: "Pokemon", value_cents: 90000 }),
    card(4, { player: "Vet", brand: "Topps", year: "2019", value_cents: 500 }),
  ];

  it("takes comparables nearest first: same brand and close year before a far year", () => {
    const declared = { ...none, brand: "Bowman", year: "2019", category: "Baseball" };
    expect(comparableDistance(declared, card(1, catalog[0] ?? {}))).toBeLessThan(
      comparableDistance(declared, card(2, catalog[1] ?? {})) ?? Number.POSITIVE_INFINITY,
    );
    // Another category is never comparable when a category was declared.
    expect(comparableDistance(declared, card(3, catalog[2] ?? {}))).toBeNull();
  });

  it("values from the comparables' median at the grade, low/high from their spread, confidence low", () => {
    // Comparable: the two Bowman cards and, by category alone, the Topps one (not the Pokemon card).
    const value = valueUnidentified({ ...none, brand: "Bowman", category: "Baseball" }, catalog, 9);
    const multiple = gradeMultiple(9);
    expect(value).toEqual({
      currency: "USD",
      low: round(5 * multiple),
      mid: round(20 * multiple),
      high: round(60 * multiple),
      confidence: "low",
      basis: "comparables",
      raw_cents: 2000,
    });
  });

  it("falls back to the whole catalog (median, quartiles) with confidence none when nothing is comparable", () => {
    const value = valueUnidentified({ ...none, brand: "Nobody Prints" }, catalog, 6);
    // Sorted raw values 500, 2000, 6000, 90000: quartiles 1625 and 27000, median 4000; multiple 1 at 6.
    expect(value).toEqual({
      currency: "USD",
      low: 16.25,
      mid: 40,
      high: 270,
      confidence: "none",
      basis: "catalog_wide",
      raw_cents: 4000,
    });
  });

  it("keeps the engine's catalog value for an identified card (basis catalog_match)", () => {
    const engineValue = { currency: "USD" as const, low: 10, mid: 12, high: 14, confidence: "high" as const };
    const value = certificateValue({ catalogId: 4, engineValue, declared: none, catalog, overall: 6 });
    expect(value).toEqual({ ...engineValue, basis: "catalog_match", raw_cents: 500 });
  });

  it("values an identification without numbers from comparables instead", () => {
    const engineValue = { currency: "USD" as const, low: null, mid: null, high: null, confidence: "none" as const };
    const value = certificateValue({
      catalogId: null,
      engineValue,
      declared: { ...none, player: "Charizard" },
      catalog,
      overall: 6,
    });
    expect(value).toMatchObject({ basis: "comparables", mid: 900, low: 450, high: 1350, confidence: "low" });
  });
});
