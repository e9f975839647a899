// What a settled rejection costs its client. Rejections are never billed; up to
// REJECTION_REFUND_HOURLY_ALLOWANCE of them per client and hourly quota window also get their quota
// unit back, and past that they keep it (so garbage cannot be sent without bound: the quota's 429
// stops it). The decision is one conditional UPDATE: D1 runs statements one at a time, so two
// rejections settling at once cannot both take the allowance's last refund.
import { eq, sql } from "drizzle-orm";
import { type SubmissionRow, submissions } from "../db/schema";
import { publicQuotaKey, refundQuota } from "../quota/client";
import type { SettleDeps } from "./settle-deps";

/** Records the rejected submission's billing (`refunded` or `counted`) and gives the unit back when refunded. */
export async function billRejection(
  deps: Pick<SettleDeps, "db" | "env" | "config">,
  submission: Pick<SubmissionRow, "gradingId" | "clientId" | "apiKeyId" | "quotaWindowStart">,
): Promise<"refunded" | "counted"> {
  const window = submission.quotaWindowStart;
  if (window === null) {
    // Nothing was counted against a quota (no window recorded), so nothing is owed either way.
    await deps.db
      .update(submissions)
      .set({ billing: "refunded" })
      .where(eq(submissions.gradingId, submission.gradingId));
    return "refunded";
  }
  const allowance = deps.config.REJECTION_REFUND_HOURLY_ALLOWANCE;
  const [row] = await deps.db
    .update(submissions)
    .set({
      billing: sql`CASE WHEN (SELECT count(*) FROM submissions AS s WHERE s.client_id = ${submission.clientId} AND s.quota_window_start = ${window} AND s.billing = 'refunded') < ${allowance} THEN 'refunded' ELSE 'counted' END`,
    })
    .where(eq(submissions.gradingId, submission.gradingId))
    .returning({ billing: submissions.billing });
  if (row?.billing !== "refunded") return "counted";
  await refundQuota(deps.env.QUOTA, publicQuotaKey(submission.apiKeyId), window);
  return "refunded";
}
