import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, asc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  POPULATION_MAX_AGE_SECONDS,
  populationKey,
  readPopulation,
  writePopulation,
} from "../../cache/population-cache";
import type { Database } from "../../db/client";
import { catalogCards, certificates } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { publicErrorResponses } from "../../errors/openapi";
import { PopulationQuery, PopulationSchema } from "./schemas";

/** Cards listed per report; a broader query says `truncated`. */
export const MAX_POPULATION_CARDS = 50;

export const getPopulationRoute = createRoute({
  method: "get",
  path: "/population",
  operationId: "getPopulation",
  tags: ["Population"],
  summary: "Live certificate counts per grade for catalog cards",
  description:
    "How many live certificates exist at each overall grade: for one catalog card (`card_id`) or for the catalog cards matching `brand`, `year`, `set` and/or `player` (at most 50 cards). Revoked certificates and certificates of unidentified cards are not counted; catalog entries built from submitters' declared fields are left out unless `include_unverified=true`. Served from the edge cache for up to 60 s (`Cache-Control: public, max-age=60`); a `card_id` report is purged when one of its certificates is issued or revoked. Authentication and quota as for every Public API request.",
  security: [{ publicKey: [] }],
  request: { query: PopulationQuery },
  responses: {
    200: {
      description: "The population report.",
      headers: { "Cache-Control": { description: "`public, max-age=60`.", schema: { type: "string" } } },
      content: { "application/json": { schema: PopulationSchema } },
    },
    ...publicErrorResponses,
  },
});

type Population = typeof PopulationSchema._output;

/** Counts per grade of the catalog cards matching `where` (one grouped query over an index). */
export async function readPopulationCounts(db: Database, where: SQL | undefined): Promise<Population> {
  // Every condition is on the catalog side (which cards, and whether unverified entries count).
  const matching = db
    .select({ id: catalogCards.id })
    .from(catalogCards)
    .where(where)
    .orderBy(asc(catalogCards.id))
    .limit(MAX_POPULATION_CARDS + 1);
  const rows = await db
    .select({
      card: {
        id: catalogCards.id,
        brand: catalogCards.brand,
        year: catalogCards.year,
        set: catalogCards.setName,
        card_number: catalogCards.cardNumber,
        variant: catalogCards.variant,
        player: catalogCards.playerName,
      },
      overall: certificates.overall,
      count: sql<number>`count(${certificates.number})`,
    })
    .from(catalogCards)
    .leftJoin(certificates, and(eq(certificates.cardId, catalogCards.id), isNull(certificates.revokedAt)))
    .where(inArray(catalogCards.id, matching))
    .groupBy(catalogCards.id, certificates.overall)
    .orderBy(asc(catalogCards.id));
  const byCard = new Map<number, Population["cards"][number]>();
  for (const row of rows) {
    const entry = byCard.get(row.card.id) ?? { card: row.card, total: 0, grades: [] };
    if (row.overall !== null && row.count > 0) {
      entry.grades.push({ grade: row.overall, count: row.count });
      entry.total += row.count;
    }
    byCard.set(row.card.id, entry);
  }
  const cards = [...byCard.values()].slice(0, MAX_POPULATION_CARDS);
  for (const card of cards) card.grades.sort((a, b) => b.grade - a.grade);
  return { cards, truncated: byCard.size > MAX_POPULATION_CARDS, as_of: new Date().toISOString() };
}

/**
 * The certificate page's line: live certificates of one verified catalog card, and how many of
 * them are graded at least `overall`. Null for an unverified entry (not counted unless asked).
 */
export async function cardPopulation(
  db: Database,
  cardId: number,
  overall: number,
): Promise<{ total: number; atOrAbove: number } | null> {
  const [row] = await db
    .select({
      total: sql<number>`count(${certificates.number})`,
      atOrAbove: sql<number>`count(case when ${certificates.overall} >= ${overall} then 1 end)`,
    })
    .from(catalogCards)
    .leftJoin(certificates, and(eq(certificates.cardId, catalogCards.id), isNull(certificates.revokedAt)))
    .where(and(eq(catalogCards.id, cardId), eq(catalogCards.verified, true)))
    // Grouped, so a missing or unverified card gives no row rather than a row of zeros.
    .groupBy(catalogCards.id);
  return row ? { total: row.total, atOrAbove: row.atOrAbove } : null;
}

const lowerEquals = (column: SQLiteColumn, value: string) => sql`lower(${column}) = ${value.toLowerCase()}`;

export function registerGetPopulation(app: OpenAPIHono<AppEnv>) {
  app.openapi(getPopulationRoute, async (c) => {
    const query = c.req.valid("query");
    const key = populationKey(query);
    c.header("Cache-Control", `public, max-age=${POPULATION_MAX_AGE_SECONDS}`);
    const cached = await readPopulation<Population>(key);
    if (cached) {
      c.header("x-cache", "HIT");
      return c.json(cached, 200);
    }
    const conditions: SQL[] = [];
    if (query.card_id !== undefined) conditions.push(eq(catalogCards.id, query.card_id));
    if (query.brand !== undefined) conditions.push(lowerEquals(catalogCards.brand, query.brand));
    if (query.year !== undefined) conditions.push(lowerEquals(catalogCards.year, query.year));
    if (query.set !== undefined) conditions.push(lowerEquals(catalogCards.setName, query.set));
    if (query.player !== undefined) conditions.push(lowerEquals(catalogCards.playerName, query.player));
    if (query.include_unverified !== "true") conditions.push(eq(catalogCards.verified, true));
    const population = await readPopulationCounts(c.var.db, and(...conditions));
    if (query.card_id !== undefined && population.cards.length === 0) {
      throw new ApiError("not_found", `No catalog card ${query.card_id}.`);
    }
    c.executionCtx.waitUntil(writePopulation(key, population));
    c.header("x-cache", "MISS");
    return c.json(population, 200);
  });
}
