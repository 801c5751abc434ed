"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { cancelRun as cancelRunInDb } from "@/lib/db/runs/runLifecycle";

const inputSchema = z.object({ runId: z.string().min(1).max(100) });

/** Cancels a pending or running run; its runner notices within a second and stops taking new work. */
export async function cancelRun(formData: FormData): Promise<void> {
  await requireRole("run.cancel");
  const input = inputSchema.safeParse({ runId: formData.get("runId") });
  if (!input.success) return;
  await cancelRunInDb(getDb(), input.data.runId);
  revalidatePath(`/runs/${input.data.runId}`);
}
