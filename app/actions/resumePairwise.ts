"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { resumePairwiseFromRequest } from "@/lib/server/startPairwiseRequest";

export type ResumePairwiseState = { message: string | null };

/** Judge what a pairwise comparison has left (its server stopped, it failed, or errors to try again). */
export async function resumePairwise(_state: ResumePairwiseState, formData: FormData): Promise<ResumePairwiseState> {
  const access = await checkRole("run.resume");
  if (!access.ok) return { message: access.message };
  const id = z.string().min(1).max(200).safeParse(formData.get("comparisonId"));
  if (!id.success) return { message: "The form was incomplete: reload the page." };
  const resumed = await resumePairwiseFromRequest(getDb(), id.data);
  if (!resumed) return { message: "That pairwise comparison no longer exists." };
  revalidatePath("/compare");
  return { message: null };
}
