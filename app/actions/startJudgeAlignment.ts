"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { getRun } from "@/lib/db/runs/runQueries";
import { AlignmentRefused } from "@/lib/engine/alignment/originalJudge";
import { previewAlignment } from "@/lib/engine/alignment/previewAlignment";
import { startAlignment } from "@/lib/engine/alignment/startAlignment";
import { measureAlignmentInBackground } from "@/lib/server/alignmentJobs";
import { alignmentSpendingProblems, configuredPrices } from "@/lib/server/runSpendingGuard";

export type StartAlignmentState = { message: string | null };

const inputSchema = z.object({
  runId: z.string().min(1).max(100),
  metric: z.string().min(1).max(300),
  /** The guidance the user read and kept (their edit of a draft); empty for none. */
  guidance: z.string().trim().max(2000).default(""),
});

/**
 * Align: makes the aligned version of one of a run's judges from the labels (split, examples, the guidance
 * kept) and measures it on the held-out labels in the background; the alignment's page shows the progress,
 * then the comparison. Refused with the reason when the labels, the judge or the spending limits do not allow it.
 */
export async function startJudgeAlignment(
  _state: StartAlignmentState,
  formData: FormData,
): Promise<StartAlignmentState> {
  const access = await checkRole("judge.align");
  if (!access.ok) return { message: access.message };
  const input = inputSchema.safeParse({
    runId: formData.get("runId"),
    metric: formData.get("metric"),
    guidance: formData.get("guidance") ?? "",
  });
  if (!input.success) return { message: "The alignment form was incomplete: open the judge's Align page again." };
  const db = getDb();
  const run = await getRun(db, input.data.runId);
  if (!run) return { message: "That run no longer exists." };
  const preview = await previewAlignment(db, run, input.data.metric, configuredPrices());
  if (preview.problem) return { message: `This judge cannot be aligned: ${preview.problem}.` };
  const problems = await alignmentSpendingProblems(db, access.user, {
    judge: { provider: run.judgeProvider, model: run.judgeModel },
    estimatedUsd: preview.estimate.usd,
  });
  if (problems.length > 0) return { message: problems.join(" ") };
  let alignmentId: string;
  try {
    const started = await startAlignment(db, run, {
      metric: input.data.metric,
      seed: preview.seed,
      guidance: input.data.guidance || null,
      createdById: access.user.local ? null : access.user.id,
    });
    alignmentId = started.id;
  } catch (error) {
    if (error instanceof AlignmentRefused) return { message: `This judge cannot be aligned: ${error.message}.` };
    throw error;
  }
  measureAlignmentInBackground(alignmentId);
  redirect(`/alignments/${alignmentId}`);
}
