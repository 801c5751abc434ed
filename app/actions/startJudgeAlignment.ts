"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { startAlignmentFromRequest } from "@/lib/server/startAlignmentRequest";

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
  const started = await startAlignmentFromRequest(getDb(), access.user, {
    runId: input.data.runId,
    metric: input.data.metric,
    guidance: input.data.guidance || null,
  });
  if (!started.ok) return { message: started.message };
  redirect(`/alignments/${started.alignment.id}`);
}
