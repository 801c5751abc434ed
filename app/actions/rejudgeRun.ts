"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { resetJudgmentsForRejudge } from "@/lib/db/runs/rejudgeWork";
import { executeRunInBackground } from "@/lib/server/runScheduler";
import { applySpendingLimits } from "@/lib/server/runSpendingGuard";

const inputSchema = z.object({
  runId: z.string().min(1).max(100),
  which: z.enum(["errored", "errored_or_failed"]),
  // A checkbox: present ("on") when ticked, absent otherwise.
  secondOpinion: z.literal("on").nullable(),
  // The confirmation step sets this; a stray POST without it changes nothing.
  confirm: z.literal("rejudge"),
});

/**
 * Re-judges a finished run's errored (or errored and failed) judgments, leaving every other result as it is.
 * Sent only from the confirmation that showed the estimate.
 */
export async function rejudgeRun(formData: FormData): Promise<void> {
  const user = await requireRole("run.rejudge");
  const input = inputSchema.safeParse({
    runId: formData.get("runId"),
    which: formData.get("which"),
    secondOpinion: formData.get("secondOpinion"),
    confirm: formData.get("confirm"),
  });
  if (!input.success) return;
  await applySpendingLimits(getDb(), user, input.data.runId);
  const reset = await resetJudgmentsForRejudge(getDb(), input.data.runId, input.data.which, {
    secondOpinion: input.data.secondOpinion === "on",
  });
  if (reset > 0) executeRunInBackground(input.data.runId);
  revalidatePath(`/runs/${input.data.runId}`);
}
