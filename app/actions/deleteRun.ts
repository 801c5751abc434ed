"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { requireRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { deleteRun as deleteRunInDb } from "@/lib/db/runs/runLifecycle";

const inputSchema = z.object({ runId: z.string().min(1).max(100), confirm: z.literal("delete") });

/** Deletes a run and all its results; the form must carry confirm=delete (the page asks first). */
export async function deleteRun(formData: FormData): Promise<void> {
  await requireRole("run.delete");
  const input = inputSchema.safeParse({ runId: formData.get("runId"), confirm: formData.get("confirm") });
  if (!input.success) return;
  await deleteRunInDb(getDb(), input.data.runId);
  redirect("/runs");
}
