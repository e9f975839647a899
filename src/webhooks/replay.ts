// Replaying deliveries (the operator's tool for the delivery log and the dead letters): a delivery
// goes back to pending under its own id (receivers dedupe on `svc-delivery-id`) and is queued again.
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { apiClients, type WebhookDeliveryRow, webhookDeliveries, webhookTargets } from "../db/schema";
import { enqueueDeliveries } from "./outbox";

/** Back to pending, pointed at the current URL (the client's, or the target's), and queued now. */
export async function replayDeliveries(
  env: Env,
  db: Database,
  rows: WebhookDeliveryRow[],
): Promise<WebhookDeliveryRow[]> {
  const replayed: WebhookDeliveryRow[] = [];
  for (const row of rows) {
    let url = row.url;
    if (row.kind === "public" && row.clientId !== null) {
      const [client] = await db
        .select({ url: apiClients.webhookUrl })
        .from(apiClients)
        .where(eq(apiClients.id, row.clientId))
        .limit(1);
      if (client?.url) url = client.url;
    } else if (row.targetId !== null) {
      const [target] = await db
        .select({ url: webhookTargets.url })
        .from(webhookTargets)
        .where(eq(webhookTargets.id, row.targetId))
        .limit(1);
      if (target) url = target.url;
    }
    const [updated] = await db
      .update(webhookDeliveries)
      .set({ status: "pending", url, nextAttemptAt: null, enqueuedAt: null })
      .where(eq(webhookDeliveries.id, row.id))
      .returning();
    if (updated) replayed.push(updated);
  }
  await enqueueDeliveries(
    env,
    db,
    replayed.map((row) => row.id),
  );
  return replayed;
}
