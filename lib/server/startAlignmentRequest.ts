import type { AuthUser } from "@/lib/auth/guard";
import type { StoredAlignment } from "@/lib/db/alignments/judgeAlignments";
import type { Db } from "@/lib/db/client";
import { getRun } from "@/lib/db/runs/runQueries";
import { AlignmentRefused } from "@/lib/engine/alignment/originalJudge";
import { previewAlignment } from "@/lib/engine/alignment/previewAlignment";
import { startAlignment } from "@/lib/engine/alignment/startAlignment";
import { measureAlignmentInBackground } from "./alignmentJobs";
import { alignmentSpendingProblems, configuredPrices } from "./runSpendingGuard";

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
  const problems = await alignmentSpendingProblems(db, user, {
    judge: { provider: run.judgeProvider, model: run.judgeModel },
    estimatedUsd: preview.estimate.usd,
  });
  if (problems.length > 0) return { ok: false, kind: "forbidden", message: problems.join(" ") };
  try {
    const alignment = await startAlignment(db, run, {
      metric: request.metric,
      seed: preview.seed,
      guidance: request.guidance?.trim() || null,
      createdById: user.local ? null : user.id,
    });
    measureAlignmentInBackground(alignment.id);
    return { ok: true, alignment };
  } catch (error) {
    if (error instanceof AlignmentRefused)
      return { ok: false, kind: "refused", message: `This judge cannot be aligned: ${error.message}.` };
    throw error;
  }
}
