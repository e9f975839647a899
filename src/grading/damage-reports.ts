// The damage reports of a graded submission: drawn and stored after the settlement is recorded
// (after the response on the request path), only when the settlement wrote a grade run (a client
// linked to a user; the Partner API is the only place reports are shown). The grade run names the
// reports only once both are in R2, so a URL is never handed out for an image that is not there:
// until then (or when drawing failed) its damage report URLs are null, as for an engine that draws
// none.
import { eq } from "drizzle-orm";
import { gradeRuns } from "../db/schema";
import { logEvent } from "../errors/log";
import { writeWithStagedImages } from "../storage/images";
import type { Graded } from "./engine/types";
import type { SettleDeps } from "./settle-deps";

export const damageReportKey = (gradingId: string, face: "front" | "back") =>
  `submissions/${gradingId}/damage-report-${face}.png`;

/** Draws the reports, stores them and names them on the grading's grade run. */
export async function storeDamageReports(deps: SettleDeps, gradingId: string, graded: Graded): Promise<void> {
  const { db, env } = deps;
  const [run] = await db
    .select({ id: gradeRuns.id })
    .from(gradeRuns)
    .where(eq(gradeRuns.gradingSessionId, gradingId))
    .limit(1);
  if (!run) return;
  const reports = await graded.renderReports();
  const staged = (face: "front" | "back") => {
    const image = face === "front" ? reports.damage_report_front : reports.damage_report_back;
    return image ? { key: damageReportKey(gradingId, face), bytes: image.bytes, contentType: image.contentType } : null;
  };
  const front = staged("front");
  const back = staged("back");
  if (!front && !back) return;
  await writeWithStagedImages(env.IMAGES, [front, back], {
    write: () =>
      db
        .update(gradeRuns)
        .set({ damageReportFrontKey: front?.key ?? null, damageReportBackKey: back?.key ?? null })
        .where(eq(gradeRuns.id, run.id)),
  });
}

/** The reports' work as a promise that never rejects: a failure is logged and leaves the URLs null. */
export function damageReportsWork(deps: SettleDeps, gradingId: string, graded: Graded): Promise<void> {
  return storeDamageReports(deps, gradingId, graded).catch((error) =>
    logEvent("error", { grading_id: gradingId, step: "damage reports" }, error),
  );
}
