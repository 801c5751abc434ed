"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { cancelRun as cancelRunInDb } from "@/lib/db/runLifecycle";

/** Cancels a pending or running run; its runner notices within a second and stops taking new work. */
export async function cancelRun(formData: FormData): Promise<void> {
  const runId = z.string().min(1).parse(formData.get("runId"));
  await cancelRunInDb(getDb(), runId);
  revalidatePath(`/runs/${runId}`);
}
