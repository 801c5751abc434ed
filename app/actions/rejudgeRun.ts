"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { resetJudgmentsForRejudge } from "@/lib/db/runLifecycle";
import { executeRunInBackground } from "@/lib/server/runScheduler";

const inputSchema = z.object({ runId: z.string().min(1), which: z.enum(["errored", "errored_or_failed"]) });

/** Re-judges a finished run's errored (or errored and failed) judgments, leaving every other result as it is. */
export async function rejudgeRun(formData: FormData): Promise<void> {
  const { runId, which } = inputSchema.parse({ runId: formData.get("runId"), which: formData.get("which") });
  const reset = await resetJudgmentsForRejudge(getDb(), runId, which);
  if (reset > 0) executeRunInBackground(runId);
  revalidatePath(`/runs/${runId}`);
}
