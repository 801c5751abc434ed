import type { AuthUser } from "@/lib/auth/guard";
import {
  claimAlignmentMeasurementWithinLimit,
  getAlignment,
  recordAlignmentRefusal,
  type StoredAlignment,
} from "@/lib/db/alignments/judgeAlignments";
import type { Db } from "@/lib/db/client";
import { getRun, type RunRecord } from "@/lib/db/runs/runQueries";
import { AlignmentRefused } from "@/lib/engine/alignment/originalJudge";
import { estimateMeasurement, previewAlignment } from "@/lib/engine/alignment/previewAlignment";
import { startAlignment } from "@/lib/engine/alignment/startAlignment";
import { RunsInProgressRefusal } from "@/lib/engine/runsInProgressRefusal";
import { measureAlignmentInBackground } from "./alignmentJobs";
import {
  alignmentSpendingProblems,
  configuredPrices,
  runsInProgressLimitOf,
  runsInProgressRefusalMessage,
} from "./runSpendingGuard";

/**
 * Align, as the Align page and the API ask for it: the judge, its labels and the spending limits checked, the
 * aligned version stored (split, examples, the guidance kept) and measured in the background. Never throws for
 * what a user can fix: the outcome says why, in words.
 */
export type StartAlignmentOutcome =
  | { ok: true; alignment: StoredAlignment }
  | { ok: false; kind: "not_found" | "refused" | "forbidden"; message: string };

export async function startAlignmentFromRequest(
  db: Db,
  user: AuthUser,
  request: { runId: string; metric: string; guidance: string | null },
): Promise<StartAlignmentOutcome> {
  const run = await getRun(db, request.runId);
  if (!run) return { ok: false, kind: "not_found", message: "That run no longer exists." };
  const preview = await previewAlignment(db, run, request.metric, configuredPrices());
  if (preview.problem)
    return { ok: false, kind: "refused", message: `This judge cannot be aligned: ${preview.problem}.` };
  const refusal = await measurementRefusal(db, user, run, preview.estimate.usd);
  if (refusal) return { ok: false, kind: "forbidden", message: refusal };
  const inProgressLimit = runsInProgressLimitOf(user);
  try {
    const alignment = await startAlignment(db, run, {
      metric: request.metric,
      seed: preview.seed,
      guidance: request.guidance?.trim() || null,
      createdById: user.local ? null : user.id,
      inProgressLimit,
    });
    measureAlignmentInBackground(alignment.id);
    return { ok: true, alignment };
  } catch (error) {
    if (error instanceof AlignmentRefused)
      return { ok: false, kind: "refused", message: `This judge cannot be aligned: ${error.message}.` };
    if (error instanceof RunsInProgressRefusal)
      return { ok: false, kind: "forbidden", message: runsInProgressRefusalMessage(inProgressLimit, error.inProgress) };
    throw error;
  }
}

export type RemeasureOutcome = { ok: true } | { ok: false; kind: "not_found" | "forbidden" | "busy"; message: string };

/**
 * Measure again an alignment that failed or whose server stopped, under the same checks as its first
 * measurement: its judge model allowed, its estimate within ASSAY_MAX_RUN_USD, and the user under their limit
 * of runs in progress (counted where the measurement is claimed). A refusal is also written on the alignment,
 * whose page shows why beside the button.
 */
export async function remeasureAlignmentFromRequest(
  db: Db,
  user: AuthUser,
  alignmentId: string,
): Promise<RemeasureOutcome> {
  const stored = await getAlignment(db, alignmentId);
  if (!stored) return { ok: false, kind: "not_found", message: "That alignment no longer exists." };
  const refuse = async (message: string): Promise<RemeasureOutcome> => {
    await recordAlignmentRefusal(db, alignmentId, `not measured again: ${message.replace(/\.$/, "")}`);
    return { ok: false, kind: "forbidden", message };
  };
  // Without its base run the measurement fails at once, spending nothing, and says so on the alignment.
  const run = stored.baseRunId ? await getRun(db, stored.baseRunId) : null;
  if (run) {
    const estimate = await estimateMeasurement(db, stored, run, configuredPrices());
    const refusal = await measurementRefusal(db, user, run, estimate.usd);
    if (refusal) return refuse(refusal);
  }
  const inProgressLimit = runsInProgressLimitOf(user);
  const claimed = await claimAlignmentMeasurementWithinLimit(db, alignmentId, inProgressLimit);
  if (!claimed.ok) return refuse(runsInProgressRefusalMessage(inProgressLimit, claimed.inProgress));
  if (!claimed.value) return { ok: false, kind: "busy", message: "Another server is measuring this alignment." };
  measureAlignmentInBackground(alignmentId);
  return { ok: true };
}

/**
 * What stands between a user and measuring an aligned version of this run's judge, the first time or again:
 * the judge model allowed, the estimate within ASSAY_MAX_RUN_USD, and their runs in progress (counted early
 * here, and again where the measurement is stored or claimed). Null when it may start.
 */
async function measurementRefusal(
  db: Db,
  user: AuthUser,
  run: RunRecord,
  estimatedUsd: number | null,
): Promise<string | null> {
  const problems = await alignmentSpendingProblems(db, user, {
    judge: { provider: run.judgeProvider, model: run.judgeModel },
    estimatedUsd,
  });
  return problems.length > 0 ? problems.join(" ") : null;
}
