"use server";

import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { estimateRejudge as estimateRejudgeOfRun, type RejudgeEstimate } from "@/lib/engine/rejudgeEstimate";
import { getRun } from "@/lib/db/runs/runQueries";
import { readLlmConfig } from "@/lib/llm/llmConfig";
import { priceFor } from "@/lib/llm/pricing";
import { logServerError } from "@/lib/server/logError";
import { checkStoredRunMaySpend } from "@/lib/server/runSpendingGuard";

const inputSchema = z.object({
  runId: z.string().min(1).max(100),
  which: z.enum(["errored", "errored_or_failed"]),
  secondOpinion: z.boolean(),
});

export type EstimateRejudgeResult = { ok: true; estimate: RejudgeEstimate } | { ok: false; message: string };

/** What a re-judge would redo and spend (judgments, LLM calls, tokens, cost), shown before the user confirms it. */
export async function estimateRejudge(input: unknown): Promise<EstimateRejudgeResult> {
  const access = await checkRole("run.estimate");
  if (!access.ok) return { ok: false, message: access.message };
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, message: "That re-judge request is not valid." };
  const { runId, which, secondOpinion } = parsed.data;
  try {
    const db = getDb();
    const run = await getRun(db, runId);
    if (!run) return { ok: false, message: "This run no longer exists." };
    // The confirmation shows the limits in the way before the user confirms a re-judge the server would refuse.
    const allowed = await checkStoredRunMaySpend(db, access.user, runId);
    if (allowed && !allowed.ok) return { ok: false, message: allowed.problems.join(" ") };
    let prices = {};
    try {
      prices = readLlmConfig()?.prices ?? {};
    } catch {
      // A malformed configuration leaves the cost unknown; the start-up check reports it.
    }
    const price = run.judgeProvider === "heuristic" ? null : priceFor(run.judgeModel, prices);
    const estimate = await estimateRejudgeOfRun(db, runId, which, { secondOpinion, price });
    return estimate ? { ok: true, estimate } : { ok: false, message: "This run no longer exists." };
  } catch (error) {
    logServerError(`estimate re-judge of run ${runId}`, error);
    return { ok: false, message: "The estimate could not be computed; try again." };
  }
}
