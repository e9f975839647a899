// What a settlement works with and answers: its dependencies (built here for every caller: a
// request, the queue consumers, the cron), the settlement itself, and what the caller may already
// know about the submitting client.
import { createDatabase, type Database } from "../db/client";
import type { CertificateRow, SubmissionRow } from "../db/schema";
import { type Config, loadConfig } from "../env";
import type { GradingEngine, RejectionReason } from "./engine/types";
import { createGradingEngine } from "./engines";

export interface SettleDeps {
  env: Env;
  config: Config;
  db: Database;
  engine: GradingEngine;
  /**
   * Keeps work going after the response (a request's `waitUntil`): the damage reports are drawn
   * there. Without it (queue consumers, the cron) that work is awaited before the settlement returns.
   */
  afterResponse?: (work: Promise<unknown>) => void;
}

/**
 * The settlement's dependencies. A request passes its own configuration, its session's database and an engine wrapped to
 * time its steps; the others read the bindings.
 */
export function settleDeps(
  env: Env,
  from: {
    config?: Config;
    db?: Database;
    wrapEngine?: (engine: GradingEngine) => GradingEngine;
    afterResponse?: (work: Promise<unknown>) => void;
  } = {},
): SettleDeps {
  const config = from.config ?? loadConfig(env);
  const engine = createGradingEngine(config);
  return {
    env,
    config,
    db: from.db ?? createDatabase(env.DB),
    engine: from.wrapEngine ? from.wrapEngine(engine) : engine,
    ...(from.afterResponse ? { afterResponse: from.afterResponse } : {}),
  };
}

export type Settlement =
  | { status: "complete"; certificate: CertificateRow }
  | { status: "rejected"; reason: RejectionReason; message: string }
  /** The engine failed in a way worth retrying; the submission is still processing. */
  | { status: "retry"; message: string };

/** Who the submitting client belongs to, when the caller knows it already (the request's key does). */
export interface SettleContext {
  clientUserId?: number | null;
}

/** The user the submitting client is linked to, or null. */
export async function clientUserId(deps: SettleDeps, submission: SubmissionRow, context: SettleContext) {
  if (context.clientUserId !== undefined) return context.clientUserId;
  const client = await deps.db.query.apiClients.findFirst({
    where: (clients, { eq }) => eq(clients.id, submission.clientId),
    columns: { userId: true },
  });
  return client?.userId ?? null;
}
