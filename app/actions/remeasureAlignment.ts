"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { remeasureAlignmentFromRequest } from "@/lib/server/startAlignmentRequest";

const inputSchema = z.object({ alignmentId: z.string().min(1).max(100) });

/**
 * Measures an alignment again after it failed (the endpoint down, over its rate limit) or its server stopped
 * mid-way: calls that finished before are answered by the judge cache, so nothing finished is paid twice. The
 * spending limits apply as to its first measurement; a refusal is written on the alignment, which its page shows.
 */
export async function remeasureAlignment(formData: FormData): Promise<void> {
  const user = await requireRole("judge.align");
  const input = inputSchema.safeParse({ alignmentId: formData.get("alignmentId") });
  if (!input.success) return;
  await remeasureAlignmentFromRequest(getDb(), user, input.data.alignmentId);
  revalidatePath(`/alignments/${input.data.alignmentId}`);
}
