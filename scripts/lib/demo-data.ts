// The local demo data set (`npm start`, never production): two partner users with varied cards,
// gradings and grade runs, and the images they point at.
import type { D1Database, R2Bucket } from "@cloudflare/workers-types";
import {
  KEY_START_LENGTH,
  PARTNER_KEY_PREFIX,
  PUBLIC_KEY_START_LENGTH,
  sha256Hex,
  toHex,
} from "../../src/auth/api-keys.ts";
import { encodePng } from "../../src/grading/engine/png.ts";
import { type CardArtSpec, drawBack, drawDamageReport, drawFront, drawSlab } from "./card-art.ts";

export interface DemoBindings {
  DB: D1Database;
  IMAGES: R2Bucket;
}

export const DEMO_EMAIL = "demo-partner@example.com";
export const DEMO_EMAIL_2 = "demo-partner-2@example.com";

/** Demo keys derive from a local random seed, so a restart prints the same keys. */
export async function demoPartnerKey(seed: string, label: string): Promise<string> {
  return PARTNER_KEY_PREFIX + (await demoSecret(seed, label));
}

/** The demo public API key: `svck_<12-char id>_<32-char secret>`, derived like the partner keys. */
export async function demoPublicKey(seed: string): Promise<{ key: string; keyId: string }> {
  const keyId = (await demoSecret(seed, "demo-public-key-id")).slice(0, 12);
  return { key: `svck_${keyId}_${await demoSecret(seed, "demo-public-key")}`, keyId };
}

/** The demo client's webhook signing secret, derived like the keys. */
export async function demoWebhookSecret(seed: string): Promise<string> {
  return `whsec_${await demoSecret(seed, "demo-webhook-secret")}`;
}

async function demoSecret(seed: string, label: string): Promise<string> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await crypto.subtle.importKey("raw", new TextEncoder().encode(seed), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]),
    new TextEncoder().encode(label),
  );
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const bytes = new Uint8Array(mac);
  return Array.from(bytes, (b) => alphabet[b % 62]).join("");
}

type Category = "Baseball" | "Basketball" | "Football" | "Pokémon";
interface CatalogEntry {
  category: Category;
  player: string;
  team: string | null;
  brand: string;
  year: string;
  set: string;
  number: string;
  variant: string | null;
  value: number;
}

const CATALOG: CatalogEntry[] = [
  {
    category: "Baseball",
    player: "Shohei Ohtani",
    team: "Los Angeles Angels",
    brand: "Topps",
    year: "2018",
    set: "Topps Update",
    number: "US285",
    variant: null,
    value: 12500,
  },
  {
    category: "Baseball",
    player: "Shohei Ohtani",
    team: "Los Angeles Angels",
    brand: "Topps",
    year: "2018",
    set: "Topps Update",
    number: "US285",
    variant: "Gold /2018",
    value: 89000,
  },
  {
    category: "Baseball",
    player: "Mike Trout",
    team: "Los Angeles Angels",
    brand: "Topps",
    year: "2011",
    set: "Topps Update",
    number: "US175",
    variant: null,
    value: 41000,
  },
  {
    category: "Baseball",
    player: "Ken Griffey Jr.",
    team: "Seattle Mariners",
    brand: "Upper Deck",
    year: "1989",
    set: "Upper Deck",
    number: "1",
    variant: null,
    value: 16000,
  },
  {
    category: "Baseball",
    player: "Aaron Judge",
    team: "New York Yankees",
    brand: "Topps",
    year: "2017",
    set: "Topps",
    number: "287",
    variant: null,
    value: 2800,
  },
  {
    category: "Baseball",
    player: "Fernando Tatis Jr.",
    team: "San Diego Padres",
    brand: "Bowman",
    year: "2019",
    set: "Bowman Chrome",
    number: "BCP-1",
    variant: "Refractor",
    value: 6400,
  },
  {
    category: "Baseball",
    player: "Julio Rodríguez",
    team: "Seattle Mariners",
    brand: "Topps",
    year: "2022",
    set: "Topps Chrome",
    number: "USC150",
    variant: null,
    value: 3900,
  },
  {
    category: "Basketball",
    player: "LeBron James",
    team: "Cleveland Cavaliers",
    brand: "Topps",
    year: "2003",
    set: "Topps",
    number: "221",
    variant: null,
    value: 52000,
  },
  {
    category: "Basketball",
    player: "Stephen Curry",
    team: "Golden State Warriors",
    brand: "Panini",
    year: "2009",
    set: "Hoops",
    number: "277",
    variant: null,
    value: 21000,
  },
  {
    category: "Basketball",
    player: "Luka Dončić",
    team: "Dallas Mavericks",
    brand: "Panini",
    year: "2018",
    set: "Prizm",
    number: "280",
    variant: "Silver",
    value: 38000,
  },
  {
    category: "Basketball",
    player: "Victor Wembanyama",
    team: "San Antonio Spurs",
    brand: "Panini",
    year: "2023",
    set: "Prizm",
    number: "136",
    variant: null,
    value: 9900,
  },
  {
    category: "Basketball",
    player: "Giannis Antetokounmpo",
    team: "Milwaukee Bucks",
    brand: "Panini",
    year: "2013",
    set: "Hoops",
    number: "275",
    variant: null,
    value: 7500,
  },
  {
    category: "Football",
    player: "Patrick Mahomes",
    team: "Kansas City Chiefs",
    brand: "Panini",
    year: "2017",
    set: "Prizm",
    number: "269",
    variant: null,
    value: 47000,
  },
  {
    category: "Football",
    player: "Justin Jefferson",
    team: "Minnesota Vikings",
    brand: "Panini",
    year: "2020",
    set: "Donruss Optic",
    number: "163",
    variant: "Holo",
    value: 5200,
  },
  {
    category: "Football",
    player: "Joe Burrow",
    team: "Cincinnati Bengals",
    brand: "Panini",
    year: "2020",
    set: "Prizm",
    number: "307",
    variant: null,
    value: 8800,
  },
  {
    category: "Football",
    player: "Tom Brady",
    team: "New England Patriots",
    brand: "Bowman",
    year: "2000",
    set: "Bowman",
    number: "236",
    variant: null,
    value: 65000,
  },
  {
    category: "Pokémon",
    player: "Charizard",
    team: null,
    brand: "Pokémon TCG",
    year: "1999",
    set: "Base Set",
    number: "4/102",
    variant: "Holo",
    value: 45000,
  },
  {
    category: "Pokémon",
    player: "Pikachu",
    team: null,
    brand: "Pokémon TCG",
    year: "1999",
    set: "Base Set",
    number: "58/102",
    variant: "Red Cheeks",
    value: 3200,
  },
  {
    category: "Pokémon",
    player: "Umbreon VMAX",
    team: null,
    brand: "Pokémon TCG",
    year: "2021",
    set: "Evolving Skies",
    number: "215/203",
    variant: "Alternate Art",
    value: 74000,
  },
  {
    category: "Pokémon",
    player: "Mewtwo",
    team: null,
    brand: "Pokémon TCG",
    year: "1999",
    set: "Base Set",
    number: "10/102",
    variant: "Holo",
    value: 9000,
  },
  {
    category: "Pokémon",
    player: "Lugia V",
    team: null,
    brand: "Pokémon TCG",
    year: "2022",
    set: "Silver Tempest",
    number: "186/195",
    variant: null,
    value: 15500,
  },
];

const BORDERS: [number, number, number][] = [
  [250, 250, 248],
  [245, 205, 40],
  [30, 30, 34],
  [200, 30, 40],
  [20, 80, 160],
];

/** A small deterministic generator so the demo set is the same on every machine. */
function rng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const half = (value: number) => Math.round(value * 2) / 2;

interface Statement {
  sql: string;
  params: unknown[];
}

interface DemoUserPlan {
  email: string;
  keyLabel: string;
  cards: number;
  gradings: number;
  seed: number;
}

/**
 * `receiverOrigin`: where the demo partners' webhook targets point (the origin of DEMO_WEBHOOK_URL,
 * so a receiver on another port, RECEIVER_PORT in scripts/e2e.sh, gets them too).
 */
export async function seedDemoData(
  env: DemoBindings,
  seed: string,
  receiverOrigin = "http://127.0.0.1:4900",
): Promise<void> {
  const statements: Statement[] = [];
  const images: { key: string; bytes: Uint8Array }[] = [];
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();

  const categories: Category[] = ["Baseball", "Basketball", "Football", "Pokémon"];
  categories.forEach((name, index) => {
    statements.push({ sql: "INSERT INTO catalog_categories (id, name) VALUES (?, ?)", params: [index + 1, name] });
  });
  CATALOG.forEach((entry, index) => {
    statements.push({
      sql: `INSERT INTO catalog_cards (id, category_id, brand, year, set_name, card_number, variant, player_name, team_name, svc_value, external_ids)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      params: [
        index + 1,
        categories.indexOf(entry.category) + 1,
        entry.brand,
        entry.year,
        entry.set,
        entry.number,
        entry.variant,
        entry.player,
        entry.team,
        entry.value,
        JSON.stringify({ tcdb: String(700000 + index * 37) }),
      ],
    });
  });

  const plans: DemoUserPlan[] = [
    { email: DEMO_EMAIL, keyLabel: "demo-partner-1", cards: 44, gradings: 24, seed: 7 },
    { email: DEMO_EMAIL_2, keyLabel: "demo-partner-2", cards: 8, gradings: 4, seed: 99 },
  ];
  let userCardId = 0;
  let runId = 0;
  for (const [planIndex, plan] of plans.entries()) {
    const userId = planIndex + 1;
    const random = rng(plan.seed);
    const created = iso(now - 120 * 86_400_000);
    statements.push({ sql: "INSERT INTO users (id, created_at) VALUES (?, ?)", params: [userId, created] });
    statements.push({
      sql: "INSERT INTO dashboard_accounts (id, user_id, role, email, created_at) VALUES (?, ?, 'partner', ?, ?)",
      params: [userId, userId, plan.email, created],
    });
    const key = await demoPartnerKey(seed, plan.keyLabel);
    statements.push({
      sql: "INSERT INTO partner_api_keys (id, account_id, name, start, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      params: [userId, userId, "local demo", key.slice(0, KEY_START_LENGTH), await sha256Hex(key), created],
    });

    const owned: { id: number; addedAt: number; graded: boolean }[] = [];
    for (let i = 0; i < plan.cards; i++) {
      userCardId++;
      const catalogIndex = Math.floor(random() * CATALOG.length);
      // Every fifth card shares its timestamp with the one before, as bulk imports do.
      const addedAt =
        i % 5 === 4 && owned.length > 0 ? (owned.at(-1)?.addedAt ?? now) : now - Math.floor(random() * 90 * 86_400_000);
      const graded = i < plan.gradings || random() < 0.2;
      const spec: CardArtSpec = {
        leftShare: 0.42 + random() * 0.18,
        topShare: 0.4 + random() * 0.2,
        border: BORDERS[Math.floor(random() * BORDERS.length)] ?? [250, 250, 248],
        art: [Math.floor(60 + random() * 150), Math.floor(60 + random() * 150), Math.floor(60 + random() * 150)],
        accent: [Math.floor(random() * 255), Math.floor(random() * 255), Math.floor(random() * 255)],
      };
      // A few cards have no photos yet, so their image URLs are null.
      const hasImages = i % 9 !== 8;
      const frontKey = hasImages ? `users/${userId}/cards/${userCardId}/front.png` : null;
      const backKey = hasImages ? `users/${userId}/cards/${userCardId}/back.png` : null;
      const front = drawFront(spec);
      if (frontKey && backKey) {
        images.push(
          { key: frontKey, bytes: await encodePng(front) },
          { key: backKey, bytes: await encodePng(drawBack(spec)) },
        );
      }
      const grade = graded ? half(7 + random() * 3) : null;
      statements.push({
        sql: `INSERT INTO user_cards (id, user_id, card_id, grade, grader, share_slug, front_image_key, back_image_key, added_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        params: [
          userCardId,
          userId,
          catalogIndex + 1,
          grade === null ? null : String(grade),
          grade === null ? null : "SVC",
          `demo-${userId}-${userCardId}-${toHex(crypto.getRandomValues(new Uint8Array(3)))}`,
          frontKey,
          backKey,
          iso(addedAt),
          iso(addedAt),
        ],
      });
      owned.push({ id: userCardId, addedAt, graded });

      if (i < plan.gradings && grade !== null) {
        const sessionId = crypto.randomUUID();
        const createdAt = addedAt + 60_000 + Math.floor(random() * 3_600_000);
        const outcome = i % 7 === 6 ? "failure" : "success";
        statements.push({
          sql: `INSERT INTO grading_sessions (id, user_id, user_card_id, unique_identifier, outcome, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)`,
          params: [sessionId, userId, userCardId, 1000 + i, outcome, iso(createdAt), iso(createdAt + 40_000)],
        });
        if (outcome === "success") {
          runId++;
          // Two-image input gives a centering-only run (the Partner API document's rule).
          const centeringOnly = i % 3 === 1;
          const lr = Math.round(spec.leftShare * 100);
          const tb = Math.round(spec.topShare * 100);
          const centering = half(10 - Math.max(0, Math.max(lr, 100 - lr, tb, 100 - tb) - 55) / 3);
          const corners = centeringOnly ? null : half(grade + random() - 0.5);
          const edges = centeringOnly ? null : half(grade + random() - 0.5);
          const surface = centeringOnly ? null : half(grade + random() - 0.5);
          const keys = {
            slabFront: `gradings/${sessionId}/slab-front.png`,
            slabBack: `gradings/${sessionId}/slab-back.png`,
            damageFront: `gradings/${sessionId}/damage-front.png`,
            damageBack: `gradings/${sessionId}/damage-back.png`,
          };
          images.push(
            { key: keys.slabFront, bytes: await encodePng(drawSlab(front, grade)) },
            { key: keys.slabBack, bytes: await encodePng(drawSlab(drawBack(spec), grade)) },
            { key: keys.damageFront, bytes: await encodePng(drawDamageReport(front, spec)) },
            { key: keys.damageBack, bytes: await encodePng(drawDamageReport(drawBack(spec), spec)) },
          );
          const modelGrade = {
            model_version: "svc-demo-1",
            centering: {
              front: { left_right: `${lr}/${100 - lr}`, top_bottom: `${tb}/${100 - tb}` },
              grade: centering,
            },
            corners: corners === null ? null : { grade: corners },
            edges: edges === null ? null : { grade: edges },
            surface: surface === null ? null : { grade: surface },
            input: centeringOnly ? "front_back" : "multi_view",
          };
          statements.push({
            sql: `INSERT INTO grade_runs (id, grading_session_id, user_card_id, centering_overall_grade, corners_overall_grade,
                    edges_overall_grade, surface_overall_grade, full_overall_grade, model_grade, slab_front_key, slab_back_key,
                    damage_report_front_key, damage_report_back_key, created_at)
                  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            params: [
              runId,
              sessionId,
              userCardId,
              centering,
              corners,
              edges,
              surface,
              centeringOnly ? null : grade,
              JSON.stringify(modelGrade),
              keys.slabFront,
              keys.slabBack,
              keys.damageFront,
              keys.damageBack,
              iso(createdAt + 40_000),
            ],
          });
        }
      }
    }
    statements.push({
      sql: "INSERT INTO webhook_targets (user_id, outcome, url, created_at) VALUES (?, 'success', ?, ?)",
      params: [userId, `${receiverOrigin}/partner/${userId}/success`, created],
    });
  }

  // The demo public API client is linked to the first demo user (docs/decisions.md §3).
  const publicKey = await demoPublicKey(seed);
  const createdAt = iso(now - 30 * 86_400_000);
  statements.push(
    {
      sql: "INSERT INTO api_clients (id, name, user_id, hourly_quota, created_at) VALUES (1, 'Demo partner site', 1, 120, ?)",
      params: [createdAt],
    },
    {
      sql: "INSERT INTO api_keys (client_id, key_id, key_hash, start, created_at) VALUES (1, ?, ?, ?, ?)",
      params: [
        publicKey.keyId,
        await sha256Hex(publicKey.key),
        publicKey.key.slice(0, PUBLIC_KEY_START_LENGTH),
        createdAt,
      ],
    },
  );

  // Images first: if seeding stops half-way, the rows (the "seeded" marker) are not there yet.
  for (const image of images) {
    await env.IMAGES.put(image.key, image.bytes, { httpMetadata: { contentType: "image/png" } });
  }
  await env.DB.batch(statements.map((s) => env.DB.prepare(s.sql).bind(...s.params)));
}
