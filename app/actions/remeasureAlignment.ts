"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireRole } from "@/lib/auth/requireRole";
import { claimAlignmentMeasurement } from "@/lib/db/alignments/judgeAlignments";
import { getDb } from "@/lib/db/client";
import { MEASUREMENT_STALE_MS } from "@/lib/engine/alignment/measureAlignment";
import { measureAlignmentInBackground } from "@/lib/server/alignmentJobs";

const inputSchema = z.object({ alignmentId: z.string().min(1).max(100) });

/**
 * Measures an alignment again after it failed (the endpoint down, over its rate limit) or its server stopped
 * mid-way: calls that finished before are answered by the judge cache, so nothing finished is paid twice.
 */
export async function remeasureAlignment(formData: FormData): Promise<void> {
  await requireRole("judge.align");
  const input = inputSchema.safeParse({ alignmentId: formData.get("alignmentId") });
  if (!input.success) return;
  const claimed = await claimAlignmentMeasurement(
    getDb(),
    input.data.alignmentId,
    new Date(Date.now() - MEASUREMENT_STALE_MS),
  );
  if (claimed) measureAlignmentInBackground(input.data.alignmentId);
  revalidatePath(`/alignments/${input.data.alignmentId}`);
}
