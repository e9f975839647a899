import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, asc, desc, eq, isNotNull, isNull, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { catalogCards, catalogCategories, userCards } from "../../db/schema";
import { type AppEnv, requireSurface } from "../../env";
import { errorResponses, quotaHeaders } from "../../errors/openapi";
import { presignOptional } from "../../storage/presign";
import { CursorParam, encodeCursor, LimitParam, NextCursorSchema } from "../cursor";
import { CardListItemSchema } from "./schemas";

const sortColumns = {
  added: userCards.addedAt,
  player: catalogCards.playerName,
  year: catalogCards.year,
  brand: catalogCards.brand,
  grade: userCards.gradeValue,
} as const;

export const listCardsRoute = createRoute({
  method: "get",
  path: "/cards",
  operationId: "listCards",
  tags: ["Cards"],
  summary: "List the user's owned cards",
  description:
    "Pages through the cards owned by the key's user. When `cursor` is supplied the results are ordered by `added_at` descending regardless of `sort` and `dir` (so a cursor walk never skips or repeats a card). A page in any other order (`sort` other than `added`, or `dir=asc`) is a single page: its `next_cursor` is null.",
  security: [{ partnerKey: [] }],
  request: {
    query: z.object({
      limit: LimitParam,
      cursor: CursorParam,
      q: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters").optional().openapi({
        description: "Case-insensitive substring search over player, brand, year, card number and team.",
        example: "ohtani",
      }),
      graded: z
        .enum(["all", "graded", "raw"])
        .default("all")
        .openapi({ description: "Only graded or only raw cards.", example: "all" }),
      category_id: z
        .string()
        .regex(/^[1-9]\d{0,15}$/, "must be a positive integer")
        .transform(Number)
        .optional()
        .openapi({ type: "integer", description: "Catalog category id.", example: 1 }),
      sort: z.enum(["added", "player", "year", "brand", "grade"]).default("added").openapi({
        description:
          "Order of a single page: date added, player name, year, brand or numeric grade (raw cards sort as lowest).",
        example: "added",
      }),
      dir: z.enum(["asc", "desc"]).default("desc").openapi({ description: "Direction of `sort`.", example: "desc" }),
    }),
  },
  responses: {
    200: {
      description: "A page of cards.",
      headers: quotaHeaders,
      content: {
        "application/json": {
          schema: z
            .object({
              cards: z.array(CardListItemSchema).openapi({ description: "The page of cards, in the requested order." }),
              next_cursor: NextCursorSchema,
            })
            .openapi("CardList"),
        },
      },
    },
    ...errorResponses,
  },
});

function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

export function registerListCards(app: OpenAPIHono<AppEnv>) {
  app.openapi(listCardsRoute, async (c) => {
    // Its answer carries signed image URLs: off (403, naming the secret) without a signing key.
    requireSurface(c.var.config, "image URLs");
    const query = c.req.valid("query");
    const { userId } = c.var.partner;
    // The documented rule: a cursor forces added_at descending.
    const walk = query.cursor !== undefined || (query.sort === "added" && query.dir === "desc");

    const filters: (SQL | undefined)[] = [eq(userCards.userId, userId)];
    if (query.graded === "graded") filters.push(isNotNull(userCards.grade));
    if (query.graded === "raw") filters.push(isNull(userCards.grade));
    if (query.category_id !== undefined) filters.push(eq(catalogCards.categoryId, query.category_id));
    if (query.q !== undefined) {
      const pattern = likePattern(query.q);
      const like = (column: SQLWrapper) => sql`${column} LIKE ${pattern} ESCAPE '\\'`;
      filters.push(
        or(
          like(catalogCards.playerName),
          like(catalogCards.brand),
          like(catalogCards.year),
          like(catalogCards.cardNumber),
          like(sql`coalesce(${catalogCards.teamName}, '')`),
        ),
      );
    }
    if (query.cursor) {
      filters.push(
        sql`(${userCards.addedAt}, ${userCards.id}) < (${query.cursor.timestamp}, ${query.cursor.tiebreak})`,
      );
    }
    const order = walk
      ? [desc(userCards.addedAt), desc(userCards.id)]
      : [
          query.dir === "asc" ? asc(sortColumns[query.sort]) : desc(sortColumns[query.sort]),
          desc(userCards.addedAt),
          desc(userCards.id),
        ];

    const rows = await c.var.db
      .select({
        id: userCards.id,
        cardId: userCards.cardId,
        grade: userCards.grade,
        grader: userCards.grader,
        addedAt: userCards.addedAt,
        frontImageKey: userCards.frontImageKey,
        backImageKey: userCards.backImageKey,
        brand: catalogCards.brand,
        year: catalogCards.year,
        cardNumber: catalogCards.cardNumber,
        variant: catalogCards.variant,
        playerName: catalogCards.playerName,
        teamName: catalogCards.teamName,
        svcValue: catalogCards.svcValue,
        verified: catalogCards.verified,
        category: catalogCategories.name,
      })
      .from(userCards)
      .innerJoin(catalogCards, eq(catalogCards.id, userCards.cardId))
      .innerJoin(catalogCategories, eq(catalogCategories.id, catalogCards.categoryId))
      .where(and(...filters))
      .orderBy(...order)
      .limit(query.limit + 1);

    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const hasMore = rows.length > query.limit;
    const origin = new URL(c.req.url).origin;
    const now = Date.now();
    const cards = await Promise.all(
      page.map(async (row) => {
        const [front, back] = await Promise.all([
          presignOptional(c.var.config, origin, row.frontImageKey, now),
          presignOptional(c.var.config, origin, row.backImageKey, now),
        ]);
        return {
          user_card_id: row.id,
          card_id: row.cardId,
          brand: row.brand,
          year: row.year,
          card_number: row.cardNumber,
          variant: row.variant,
          player_name: row.playerName,
          team_name: row.teamName,
          category: row.category,
          grade: row.grade,
          grader: row.grader,
          svc_value: row.svcValue,
          card_verified: row.verified,
          added_at: row.addedAt,
          images: { front, back },
        };
      }),
    );
    const nextCursor = walk && hasMore && last ? encodeCursor(last.addedAt, last.id) : null;
    return c.json({ cards, next_cursor: nextCursor }, 200);
  });
}
