"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { requireRole } from "@/lib/auth/requireRole";
import { decideAlignment, getAlignment } from "@/lib/db/alignments/judgeAlignments";
import { getDb } from "@/lib/db/client";

const inputSchema = z.object({ alignmentId: z.string().min(1).max(100), decision: z.enum(["adopt", "discard"]) });

/**
 * Adopt or discard a measured aligned judge. Adopting offers it in the dataset's run form, and goes there
 * with it chosen; the original judge is untouched either way.
 */
export async function decideJudgeAlignment(formData: FormData): Promise<void> {
  await requireRole("judge.align");
  const input = inputSchema.safeParse({ alignmentId: formData.get("alignmentId"), decision: formData.get("decision") });
  if (!input.success) return;
  const db = getDb();
  const alignment = await getAlignment(db, input.data.alignmentId);
  if (!alignment) return;
  const decided = await decideAlignment(db, alignment.id, input.data.decision === "adopt" ? "adopted" : "discarded");
  revalidatePath(`/alignments/${alignment.id}`);
  if (decided && input.data.decision === "adopt")
    redirect(`/datasets/${alignment.datasetId}/runs/new?aligned=${encodeURIComponent(alignment.id)}#aligned-judges`);
}
