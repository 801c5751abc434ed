"use server";

import { z } from "zod";
import { draftGuidance } from "@/lib/alignment/guidanceDraft";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { getRun } from "@/lib/db/runs/runQueries";
import { previewAlignment } from "@/lib/engine/alignment/previewAlignment";
import { createEngineDeps, JudgeUnavailableError } from "@/lib/engine/engineDeps";
import { webServerWorkerKind } from "@/lib/engine/worker/workerSettings";
import { LlmCallError } from "@/lib/llm/llmErrors";
import { alignmentSpendingProblems, configuredPrices } from "@/lib/server/runSpendingGuard";

export type GuidanceDraftState = { guidance: string | null; message: string | null };

const inputSchema = z.object({ runId: z.string().min(1).max(100), metric: z.string().min(1).max(300) });

/** The training disagreements a draft reads, at most: the prompt stays short, and a rule needs no more. */
const MAX_DISAGREEMENTS = 20;

/**
 * The optional guidance of an alignment: one call of the run's judge model reads the training disagreements
 * and drafts a rule, which the Align page puts in an editable field; nothing is stored until Align is pressed.
 */
export async function draftAlignmentGuidance(
  _state: GuidanceDraftState,
  formData: FormData,
): Promise<GuidanceDraftState> {
  const access = await checkRole("judge.align");
  if (!access.ok) return { guidance: null, message: access.message };
  const input = inputSchema.safeParse({ runId: formData.get("runId"), metric: formData.get("metric") });
  if (!input.success) return { guidance: null, message: "Open the judge's Align page again." };
  const db = getDb();
  const run = await getRun(db, input.data.runId);
  if (!run) return { guidance: null, message: "That run no longer exists." };
  const preview = await previewAlignment(db, run, input.data.metric, configuredPrices());
  if (preview.problem || !preview.guidanceContext)
    return { guidance: null, message: `This judge cannot be aligned: ${preview.problem ?? "no labels"}.` };
  if (preview.guidanceContext.disagreements.length === 0)
    return {
      guidance: null,
      message: "The judge agrees with every training label: there is nothing to draft a rule from.",
    };
  const problems = await alignmentSpendingProblems(db, access.user, {
    judge: { provider: run.judgeProvider, model: run.judgeModel },
    estimatedUsd: null,
  });
  if (problems.length > 0) return { guidance: null, message: problems.join(" ") };
  try {
    const { llm } = createEngineDeps(db, run, { workerKind: webServerWorkerKind() });
    if (!llm)
      return { guidance: null, message: "No model endpoint is configured: set OPENAI_API_KEY or OPENAI_BASE_URL." };
    const context = {
      ...preview.guidanceContext,
      disagreements: preview.guidanceContext.disagreements.slice(0, MAX_DISAGREEMENTS),
    };
    const draft = await draftGuidance(llm, run.judgeModel, context);
    return { guidance: draft.guidance, message: null };
  } catch (error) {
    if (error instanceof LlmCallError || error instanceof JudgeUnavailableError)
      return { guidance: null, message: `The draft could not be written: ${error.message}` };
    throw error;
  }
}
