// Factories: each test seeds exactly the rows it needs, with fresh ids, and never relies on rows
// created by another test.
import { env } from "cloudflare:workers";
import { getTableName } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  generatePartnerKey,
  generatePublicKey,
  KEY_START_LENGTH,
  PUBLIC_KEY_START_LENGTH,
  sha256Hex,
} from "../../src/auth/api-keys";
import { createDatabase } from "../../src/db/client";
import {
  apiClients,
  apiKeys,
  catalogCards,
  catalogCategories,
  certificates,
  dashboardAccounts,
  gradeRuns,
  gradingSessions,
  partnerApiKeys,
  userCards,
  users,
  webhookTargets,
} from "../../src/db/schema";
import { generateCertificateNumber } from "../../src/grading/certificate-number";
import { encryptSecret } from "../../src/webhooks/secret-box";

export const db = () => createDatabase(env.DB);

/** Inserts one row and returns it as stored (defaults and ids filled in). */
async function insertOne<T extends SQLiteTable>(table: T, values: T["$inferInsert"]): Promise<T["$inferSelect"]> {
  const [row] = (await db().insert(table).values(values).returning()) as T["$inferSelect"][];
  if (!row) throw new Error(`${getTableName(table)} insert returned nothing`);
  return row;
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export async function createUser() {
  const user = await insertOne(users, { createdAt: new Date().toISOString() });
  return user;
}

export interface PartnerFixture {
  userId: number;
  accountId: number;
  keyId: number;
  key: string;
  authorization: string;
}

/** A user with a partner account and a live key. */
export async function createPartner(
  options: { role?: "partner" | "member"; revoked?: boolean; withUser?: boolean } = {},
): Promise<PartnerFixture> {
  const user = await createUser();
  const now = new Date().toISOString();
  const account = await insertOne(dashboardAccounts, {
    userId: options.withUser === false ? null : user.id,
    role: options.role ?? "partner",
    email: `partner-${unique()}@example.com`,
    createdAt: now,
  });
  const key = generatePartnerKey();
  const apiKey = await insertOne(partnerApiKeys, {
    accountId: account.id,
    name: "test key",
    start: key.slice(0, KEY_START_LENGTH),
    keyHash: await sha256Hex(key),
    createdAt: now,
    revokedAt: options.revoked ? now : null,
  });
  return { userId: user.id, accountId: account.id, keyId: apiKey.id, key, authorization: `Bearer ${key}` };
}

export async function createCategory(name = "Baseball") {
  const category = await insertOne(catalogCategories, { name });
  return category;
}

export async function createCatalogCard(overrides: Partial<typeof catalogCards.$inferInsert> = {}) {
  const categoryId = overrides.categoryId ?? (await createCategory()).id;
  const card = await insertOne(catalogCards, {
    brand: "Topps",
    year: "2018",
    setName: "Topps Update",
    cardNumber: "US285",
    variant: null,
    playerName: "Shohei Ohtani",
    teamName: "Los Angeles Angels",
    svcValue: 12500,
    externalIds: { tcdb: "6954321" },
    ...overrides,
    categoryId,
  });
  return card;
}

export async function createUserCard(userId: number, overrides: Partial<typeof userCards.$inferInsert> = {}) {
  const cardId = overrides.cardId ?? (await createCatalogCard()).id;
  const now = new Date().toISOString();
  const userCard = await insertOne(userCards, {
    grade: null,
    grader: null,
    shareSlug: `card-${unique()}`,
    addedAt: now,
    updatedAt: now,
    ...overrides,
    userId,
    cardId,
  });
  return userCard;
}

export async function createGradingSession(
  userId: number,
  userCardId: number,
  overrides: Partial<typeof gradingSessions.$inferInsert> = {},
) {
  const now = new Date().toISOString();
  const session = await insertOne(gradingSessions, {
    id: crypto.randomUUID(),
    uniqueIdentifier: Math.floor(Math.random() * 1_000_000),
    outcome: "success",
    createdAt: now,
    updatedAt: now,
    ...overrides,
    userId,
    userCardId,
  });
  return session;
}

export async function createGradeRun(
  gradingSessionId: string,
  userCardId: number,
  overrides: Partial<typeof gradeRuns.$inferInsert> = {},
) {
  const run = await insertOne(gradeRuns, {
    centeringOverallGrade: 9.5,
    cornersOverallGrade: 9,
    edgesOverallGrade: 9,
    surfaceOverallGrade: 8.5,
    fullOverallGrade: 9,
    modelGrade: { model_version: "test-1", centering: { front: { left_right: "52/48", top_bottom: "51/49" } } },
    createdAt: new Date().toISOString(),
    ...overrides,
    gradingSessionId,
    userCardId,
  });
  return run;
}

export async function createWebhookTarget(userId: number, overrides: Partial<typeof webhookTargets.$inferInsert> = {}) {
  const target = await insertOne(webhookTargets, {
    outcome: "success",
    url: "https://hooks.example.com/grading",
    createdAt: new Date().toISOString(),
    ...overrides,
    userId,
  });
  return target;
}

/** Puts a small object in R2 and returns its key. */
export async function putImage(key: string, body = "png-bytes", contentType = "image/png") {
  await env.IMAGES.put(key, body, { httpMetadata: { contentType } });
  return key;
}

export interface PublicClientFixture {
  clientId: number;
  apiKeyId: number;
  key: string;
}

/** An API client with one live (or revoked) public key. */
export async function createPublicClient(
  options: {
    hourlyQuota?: number;
    revoked?: boolean;
    userId?: number | null;
    /** A webhook URL and its signing secret (encrypted with the test SECRETS_KEY). */
    webhook?: { url: string; secret: string };
  } = {},
): Promise<PublicClientFixture> {
  const now = new Date().toISOString();
  const client = await insertOne(apiClients, {
    name: `client-${unique()}`,
    userId: options.userId ?? null,
    hourlyQuota: options.hourlyQuota ?? 120,
    webhookUrl: options.webhook?.url ?? null,
    webhookSecretEncrypted: options.webhook ? await encryptSecret(env.SECRETS_KEY, options.webhook.secret) : null,
    createdAt: now,
  });
  const { key, keyId } = generatePublicKey();
  const apiKey = await insertOne(apiKeys, {
    clientId: client.id,
    keyId,
    keyHash: await sha256Hex(key),
    start: key.slice(0, PUBLIC_KEY_START_LENGTH),
    createdAt: now,
    revokedAt: options.revoked ? now : null,
  });
  return { clientId: client.id, apiKeyId: apiKey.id, key };
}

export async function createCertificate(overrides: Partial<typeof certificates.$inferInsert> = {}) {
  const now = new Date().toISOString();
  const certificate = await insertOne(certificates, {
    number: generateCertificateNumber(),
    gradingId: crypto.randomUUID(),
    issuedAt: now,
    overall: 9,
    centering: 9.5,
    corners: 9,
    edges: 9,
    surface: 8.5,
    centeringHorizontal: 3.2,
    centeringVertical: -1.5,
    modelVersion: "svc-edge-1.0",
    gradedAt: now,
    player: "Shohei Ohtani",
    year: "2018",
    brand: "Topps",
    setName: "Topps Update",
    cardNumber: "US285",
    variant: null,
    category: "Baseball",
    valueLow: 127.5,
    valueMid: 150,
    valueHigh: 172.5,
    valueConfidence: "high",
    valueBasis: "catalog_match",
    cardSource: "catalog",
    frontImageKey: await putImage(`certificates/${unique()}/front.jpg`, "front-bytes", "image/jpeg"),
    backImageKey: await putImage(`certificates/${unique()}/back.jpg`, "back-bytes", "image/jpeg"),
    pipelineEngine: "builtin@svc-edge-1.0",
    pipelineGradedBy: "SVC Grading",
    pipelineHostedBy: "Cloudflare Workers",
    ...overrides,
  });
  return certificate;
}
