"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { executeRunInBackground } from "@/lib/server/runScheduler";
import { applySpendingLimits, reopenRunFor, SpendingLimitRefusal } from "@/lib/server/runSpendingGuard";

const inputSchema = z.object({ runId: z.string().min(1).max(100) });

/** Resumes a failed or paused run: its finished judgments stay, the pending ones are judged now. */
export async function resumeRun(formData: FormData): Promise<void> {
  const user = await requireRole("run.resume");
  const input = inputSchema.safeParse({ runId: formData.get("runId") });
  if (!input.success) return;
  await applySpendingLimits(getDb(), user, input.data.runId);
  const reopened = await reopenRunFor(getDb(), user, input.data.runId);
  if (!reopened.ok) throw new SpendingLimitRefusal(reopened.message);
  if (reopened.reopened) executeRunInBackground(input.data.runId);
  revalidatePath(`/runs/${input.data.runId}`);
}
