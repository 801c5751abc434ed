import { getAlignment, recordAlignmentFailure } from "@/lib/db/alignments/judgeAlignments";
import { getDb } from "@/lib/db/client";
import { getRun } from "@/lib/db/runs/runQueries";
import { measureAlignment } from "@/lib/engine/alignment/measureAlignment";
import { createEngineDeps, JudgeUnavailableError } from "@/lib/engine/engineDeps";
import { webServerWorkerKind } from "@/lib/engine/worker/workerSettings";
import { readSpendingLimits } from "@/lib/config/spendingLimits";
import { logServerError } from "./logError";

/**
 * Alignments being measured by this server process, in the background of the request that started them: the
 * page follows the progress stored on the alignment. A measurement whose server stopped is taken over from
 * its page (claimAlignmentMeasurement), its finished calls answered by the judge cache.
 */
type JobState = { active: Set<string> };
const state: JobState = ((globalThis as unknown as { assayAlignmentJobs?: JobState }).assayAlignmentJobs ??= {
  active: new Set(),
});

export function measureAlignmentInBackground(alignmentId: string): void {
  if (state.active.has(alignmentId)) return;
  state.active.add(alignmentId);
  void measure(alignmentId).finally(() => state.active.delete(alignmentId));
}

async function measure(alignmentId: string): Promise<void> {
  const db = getDb();
  try {
    const stored = await getAlignment(db, alignmentId);
    if (!stored || stored.status !== "measuring") return;
    const run = stored.baseRunId ? await getRun(db, stored.baseRunId) : null;
    if (!run) {
      await recordAlignmentFailure(db, alignmentId, "the run this judge was aligned on has been deleted");
      return;
    }
    // A re-judged run reads no cache; a measurement does, so measuring again after a stop redoes no finished call.
    // Made here even with ASSAY_WEB_WORKER=0, which the workers table then says (webServerWorkerKind).
    const deps = createEngineDeps(
      db,
      { ...run, config: { ...run.config, refreshCache: false } },
      { workerKind: webServerWorkerKind() },
    );
    await measureAlignment(db, stored, run, {
      judge: deps.judge,
      costOf: deps.costOf,
      maxUsd: readSpendingLimits().maxRunUsd,
    });
  } catch (error) {
    const message =
      error instanceof JudgeUnavailableError
        ? error.message
        : "measuring stopped on an unexpected error; see the server log";
    if (!(error instanceof JudgeUnavailableError)) logServerError(`alignment ${alignmentId}`, error);
    await recordAlignmentFailure(db, alignmentId, message).catch(() => undefined);
  }
}
